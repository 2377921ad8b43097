# A method of the test build only (divided.c: theta_i = base^(-2i/r) / q,
# its own option --divisor Q >= 1, default 2), used through the CLI built
# without a line for it.  Expected values by hand: d = 4, base 100 gives
# RoFormer's theta = 1, 0.1; divided by 4: 0.25 and 0.025 (the doubles
# nearest, Python's repr), wavelengths 2 pi / theta = 8 pi, 80 pi from a
# 60-digit pi (25.132741228718345, 251.32741228718345), ratio 1/4 (a power
# of two scales both doubles exactly).  Default q = 2: theta_0 = 1/2.
"$ROPELAB" freqs --method divided --divisor 4 --dim 4 --base 100 --no-meta || exit 1
"$ROPELAB" freqs --method divided --dim 2 | grep -E '^# (divisor|method)=|^0,'
# the sweep axis comes from the declaration
"$ROPELAB" freqs --method divided --divisor 2,4 --dim 2 --no-meta
# help: the declaration's line, the method that takes it, its default
"$ROPELAB" freqs --help | grep -- '--divisor Q ' | sed 's/  */ /g'
"$ROPELAB" help methods | grep -c '^  divided '
# errors formed from the declaration, exit 2, one line each
"$ROPELAB" freqs --method rope --divisor 2 2>&1 >/dev/null; echo "rc $?"
"$ROPELAB" freqs --method divided --divisor 0.5 2>&1 >/dev/null; echo "rc $?"
"$ROPELAB" freqs --method divided --divisor x 2>&1 >/dev/null; echo "rc $?"
# the real binary has no such method nor option
"$ROPELAB_REAL" freqs --divisor 2 2>&1 >/dev/null; echo "rc $?"
