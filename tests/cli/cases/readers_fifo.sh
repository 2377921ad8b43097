# Every reader of a user's file given a FIFO with no writer (issue 33:
# freqs --config, evaluate, report and train --resume blocked in open(2)
# forever), and a folder as a config (it said "invalid JSON ... near end
# of file").  Expected: each refused at once, naming the file and what it
# is; a config is an I/O error (exit 3), a checkpoint bad input (exit 2,
# as every file that is not a checkpoint).  timeout turns a hang into
# status 124.
mkfifo ./p || exit 99
mkdir ./d || exit 99
for cmd in "freqs --config ./p" "report ./p" "evaluate ./p" "train --checkpoint ./p --resume" \
           "freqs --config ./d" "evaluate ./d" "audit ./p" "params --scheme alibi --heads 2 --params ./d"; do
  timeout 20 "$ROPELAB" $cmd 2>&1
  echo "status $?"
done
[ -p ./p ] && echo "still a FIFO"
