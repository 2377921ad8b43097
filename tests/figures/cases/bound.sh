# figures: bound_liu.gp bound_men.gp bound_pi.gp bound_yarn.gp
# bound --plot for each bound: layout at both text sizes, and what is
# drawn (table terminal).  liu: the critical dimension at each row's
# T_train (62 at 512 and 92 at 4096 for d = 128, base 10000: 2 ceil(64
# log_10000(T / 2 pi)) by hand) and the paper's LLaMA 2 point (4096, 92);
# with --tune-len the extrapolation limit's panel.  men: the smallest
# base at each length reaches the table's extremes; the published values
# of the paper's Table 1 at 1K and 4K (4.3e3, 2.7e4) are drawn.  pi:
# B(s)/d reaches its extremes at s, and B(0)/d = (1/128) sum_{k=1..64} k
# = 16.25 (every phasor 1 at s = 0) is drawn.  yarn: one ramp per
# length, each from 1 (extrapolated) down, so its largest value 1 is
# drawn; the key's correction range of each length is YaRN's
# d ln(L / (2 pi beta)) / (2 ln base) at beta_fast = 32 and beta_slow = 1
# (Peng et al. 2023, eq. 17; by awk), to the key's 2 decimals, and its
# rounded range floor(low) .. ceil(high).  liu with --tune-len 32768 at
# base 10000 = tune base: eq. 16's limit is T_tune itself, a flat line
# that had one tic (3e4) to read it by: a tic at 32768 now.
. "$(dirname "$0")/../figure.sh"
"$ROPELAB" bound liu --dim 128 --base 10000 --len 512,1024,4096,8192 --tune-len 32768 -o liu.csv --plot liu.svg || exit 1
echo "liu:"
layout liu.svg
gnuplot -c "$plots/bound_liu.gp" liu.csv liu.table table || exit 1
drawn point liu.table 512 62
drawn point liu.table 4096 92
drawn extremes liu.table liu.csv critical_dim --x len --panel 1
drawn point liu.table 8192 32768
echo "tic at T_tune: $(grep -q '>32768<' liu.svg && echo yes || echo no)"
"$ROPELAB" bound men --dim 128 --len 1024:16384:x2 --fit -o men.csv --plot men.svg || exit 1
echo "men:"
layout men.svg
gnuplot -c "$plots/bound_men.gp" men.csv men.table table || exit 1
drawn extremes men.table men.csv base --x len
drawn point men.table 1024 4300
drawn point men.table 4096 27000
"$ROPELAB" bound pi --dim 128 --to 1024 -o pi.csv --plot pi.svg || exit 1
echo "pi:"
layout pi.svg
gnuplot -c "$plots/bound_pi.gp" pi.csv pi.table table || exit 1
drawn extremes pi.table pi.csv b_over_d --x s
drawn point pi.table 0 16.25
"$ROPELAB" bound yarn --dim 128 --factor 8 --len 1024,4096,65536 -o yarn.csv --plot yarn.svg || exit 1
echo "yarn:"
layout yarn.svg
gnuplot -c "$plots/bound_yarn.gp" yarn.csv yarn.table table || exit 1
echo "ramps: $(grep -c '^# Curve title' yarn.table), each reaching 1:" \
  "$(awk '/^# Curve/ { c++ } /^ *[0-9]/ && $2 == 1 { one[c] = 1 } END { n = 0; for (k in one) n++; print n }' yarn.table)"
for L in 1024 4096 65536; do
  awk -v L=$L -v key="$(grep -o "L = $L: [0-9.]* \.\. [0-9.]* [a-z(]*" yarn.svg | tr '\n' ' ')" 'BEGIN {
    pi = atan2(0, -1); lo = 64 * log(L / (2 * pi * 32)) / log(10000); hi = 64 * log(L / (2 * pi)) / log(10000)
    fl = int(lo); ce = (hi == int(hi)) ? hi : int(hi) + 1
    n = split(key, w, " ")
    # w: L = N: lo .. hi (rounded L = N: lo .. hi unrounded
    ok = n >= 13 && w[4] == fl && w[6] == ce && (w[11] - lo) ^ 2 <= 0.0051 ^ 2 && (w[13] - hi) ^ 2 <= 0.0051 ^ 2
    print "L = " L ": key correction range is YaRN eq. 17: " (ok ? "yes" : "no (" key ")") }'
done
