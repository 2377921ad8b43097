# A command of the test build only (cmd_phase.c: the angle m theta_i of
# each pair at --position M, --wrap into [-pi, pi)), used through every
# way the driver gives a command, by a binary whose other commands and
# output layer are the real ones.  Expected by hand: d = 4, base 100 gives
# RoFormer's theta = 1 and 100^(-1/2) = 0.1; at m = 10 the angles are 10
# and 1 (the doubles nearest: 10 and 1); wrapped, 10 - 4 pi =
# -2.5663706143592 (Python: 10 - 4*math.pi = -2.566370614359172) and 1.
"$ROPELAB" phase --dim 4 --base 100 --position 10 --no-meta
"$ROPELAB" phase --dim 4 --base 100 --position 10 --wrap --no-meta
# its own options in the metadata, with the schedule's
"$ROPELAB" phase --dim 4 --base 100 --position 10 | grep -E '^# (position|wrap|base)='
# a sweep over its own option, and over a schedule option; another format
"$ROPELAB" phase --dim 2 --position 1,2,3 --no-meta
"$ROPELAB" phase --dim 2 --base 100,10000 --position 5 --no-meta --output-format tsv
# help: listed by the command list, and its own page made by the driver
"$ROPELAB" --help | grep -E '^ +phase '
"$ROPELAB" phase --help | grep -E -e '--position M|--wrap|^usage:'
# errors: a bad value of its own option named, a near miss suggested
"$ROPELAB" phase --position -1 2>&1 >/dev/null; echo "rc $?"
"$ROPELAB" phase --positon 3 2>e.txt >/dev/null; echo "rc $?"; head -1 e.txt
"$ROPELAB" phas 2>e.txt >/dev/null; echo "rc $?"; head -1 e.txt
# the real binary has no such command
"$ROPELAB_REAL" phase 2>e.txt >/dev/null; echo "rc $?"; head -1 e.txt
