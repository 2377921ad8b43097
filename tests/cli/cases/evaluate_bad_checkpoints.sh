# Broken checkpoints and resumes that do not fit get one line and exit 2
# (the messages' hexadecimal checksums, which depend on the date in the
# provenance, and the file length, which depends on the command line in
# it, are masked): a truncated file (its header's length is the
# whole file's: 5000 bytes of it), another format version (byte 8 set to
# 2), a flipped byte among the parameters (CRC-32 mismatch), a CSV, an
# empty file, a missing one; --resume with another scheme or width; a
# learned-position model asked for positions its table does not have.
set -e
T="--train-len 2 --eval-len 3 --steps 4 --batch 2 --d-model 8 --heads 2 --layers 1
   --eval-samples 5 --no-meta"
# shellcheck disable=SC2086
"$ROPELAB" train $T --checkpoint r.ck --eval-output /dev/null
try() {
  rc=0
  "$@" >/dev/null 2>err || rc=$?
  echo "rc=$rc lines=$(wc -l <err) $(sed 's/0x[0-9a-f]*/0x?/g; s/says [0-9]*/says N/' err)"
}
head -c 5000 r.ck >t.ck
try "$ROPELAB" evaluate t.ck
cp r.ck v.ck
printf '\001' | dd of=v.ck bs=1 seek=8 conv=notrunc 2>/dev/null
try "$ROPELAB" evaluate v.ck
cp r.ck c.ck
printf '\377' | dd of=c.ck bs=1 seek=3000 conv=notrunc 2>/dev/null
try "$ROPELAB" evaluate c.ck
printf 'method,len\nrope,1\n' >x.ck
try "$ROPELAB" evaluate x.ck
: >e.ck
try "$ROPELAB" evaluate e.ck
try "$ROPELAB" evaluate missing.ck
# shellcheck disable=SC2086
try "$ROPELAB" train --scheme alibi $T --checkpoint r.ck --resume
# shellcheck disable=SC2086
try "$ROPELAB" train $T --d-model 16 --checkpoint r.ck --resume
# shellcheck disable=SC2086
try "$ROPELAB" train $T --resume
# shellcheck disable=SC2086
"$ROPELAB" train --scheme learned $T --checkpoint l.ck --eval-output /dev/null
try "$ROPELAB" evaluate l.ck --eval-len 4
try "$ROPELAB" evaluate l.ck --method yarn
try "$ROPELAB" evaluate r.ck --base 500
