# figures: liu_critical.gp men_base.gp pi_fig5.gp yarn_ramp.gp methods_decay.gp methods_ratio.gp
# The experiments' figures of computed measures, each on a smaller run of
# its script's command (experiments/<name>.sh): layout at both text sizes
# and what is drawn (table terminal).  liu_critical: each base's critical
# dimension reaches its extremes, and the paper's LLaMA 2 point (4096, 92)
# is drawn.  men_base: the smallest base reaches its extremes at its
# lengths; the published values (Men et al. Table 1 and Su's at 1K, 2K:
# 4.3e3, 1.6e4 and 4.3e3, 1.2e4, from experiments/men_base.sh) are drawn.
# pi_fig5: B(s)/d reaches its extremes; the line B(s) = d is drawn at 1.
# yarn_ramp: gamma = (ratio - 1/s)/(1 - 1/s) (awk, s = 8) of each form
# reaches its extremes.  methods_decay: every method's binned bound
# reaches its extremes at its r.  methods_ratio: every series' positive
# ratio reaches its extremes at its pair.  Closed forms besides the
# published points: liu_critical at T_train = 512, 2 ceil(64 ln(512 /
# 2 pi) / ln base) by awk for each base, and base 500's saturation at
# d = 128; pi_fig5's B(0)/d = (1/128) sum_{k=1..64} k = 16.25;
# methods_ratio: linear 1/8 at every pair, NTK-aware's s^(-2i/(d-2)) =
# 1/8 at pair 63 (base s^(d/(d-2)) times), dynamic NTK's base times
# (s N/L - (s - 1))^(d/(d-2)) = 57^(64/63) at N = 32768, so pair 63's
# ratio 1/57 (transformers' dynamic rope update, N/L = 8), every
# method's pair 0 at 1 but linear's.
. "$(dirname "$0")/../figure.sh"
mkdir -p liu
for b in 500 10000 1000000; do
  "$ROPELAB" bound liu --dim 128 --base $b --len 512:65536:x1.01 -o liu/critical_$b.csv || exit 1
done
gnuplot -c "$plots/liu_critical.gp" liu liu.svg || exit 1
echo "liu_critical:"
layout liu.svg
gnuplot -c "$plots/liu_critical.gp" liu liu.table table || exit 1
for b in 500 10000 1000000; do
  drawn extremes liu.table liu/critical_$b.csv critical_dim --x len | sed "s/^/base $b: /"
done
drawn point liu.table 4096 92
for b in 500 10000 1000000; do
  awk -v b=$b 'BEGIN { x = 64 * log(512 / (2 * atan2(0, -1))) / log(b); c = (x == int(x)) ? x : int(x) + 1; print 512, 2 * c }'
done | while read -r x y; do drawn point liu.table "$x" "$y"; done
# (the grid's last length: 2 pi 500^(63/64) < 2900 below it, saturated)
drawn point liu.table "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "len") c = i; next } !/^#/ { x = $c } END { print x }' liu/critical_500.csv)" 128 | sed 's/^([^,]*/(last length/'
"$ROPELAB" bound men --dim 128 --len 1024:8192:x2 --fit -o men.csv || exit 1
printf 'len,paper,su\n1024,4.3e3,4.3e3\n2048,1.6e4,1.2e4\n' > pub.csv
gnuplot -c "$plots/men_base.gp" men.csv pub.csv men.svg || exit 1
echo "men_base:"
layout men.svg
gnuplot -c "$plots/men_base.gp" men.csv pub.csv men.table table || exit 1
drawn extremes men.table men.csv base --x len
for p in "1024 4300" "2048 16000" "2048 12000"; do
  # shellcheck disable=SC2086 # two words: x and y
  drawn point men.table $p
done
"$ROPELAB" bound pi --dim 128 --base 10000 --from 0 --to 1023 -o pi.csv || exit 1
gnuplot -c "$plots/pi_fig5.gp" pi.csv pi.svg || exit 1
echo "pi_fig5:"
layout pi.svg
gnuplot -c "$plots/pi_fig5.gp" pi.csv pi.table table || exit 1
drawn extremes pi.table pi.csv b_over_d --x s
drawn point pi.table 0 16.25
echo "B(s) = d drawn at 1: $(awk '/^# Curve 1 of/ { c = 1 } c && /^ *[0-9]/ && $2 == 1 { n++ } END { print (n > 0 ? "yes" : "no") }' pi.table)"
"$ROPELAB" freqs --method yarn --dim 128 --base 10000 --train-len 4096 --factor 8 --ramp code,paper \
  --truncate yes,no -o ramp.csv || exit 1
gnuplot -c "$plots/yarn_ramp.gp" ramp.csv ramp.svg || exit 1
echo "yarn_ramp:"
layout ramp.svg
gnuplot -c "$plots/yarn_ramp.gp" ramp.csv ramp.table table || exit 1
awk -F, 'NR == 1 { print "ramp,truncate,pair,gamma"; next } !/^#/ { print $1 "," $2 "," $3 "," ($6 - 1 / 8) / (1 - 1 / 8) }' ramp.csv > gamma.csv
for f in code,yes code,no paper,; do
  drawn extremes ramp.table gamma.csv gamma --x pair --where ramp=${f%,*} --where truncate=${f#*,} | sed "s/^/$f: /"
done
"$ROPELAB" decay --dim 128 --base 10000 --train-len 4096 --measure bound --log --from 1 --to 65536 --points 2000 \
  --bins 8 --method rope,linear,ntk,yarn,llama3,xpos,leaky-rerope,log-n --factor 8 --window 512 --leak 16 \
  --seq-len 32768 --quiet -o md.csv || exit 1
gnuplot -c "$plots/methods_decay.gp" md.csv md.svg || exit 1
echo "methods_decay:"
layout md.svg
gnuplot -c "$plots/methods_decay.gp" md.csv md.table table || exit 1
for m in rope linear ntk yarn llama3 xpos leaky-rerope log-n; do
  drawn extremes md.table md.csv bound --x r --where method=$m | sed "s/^/$m: /"
done | grep -c ': drawn$' | sed 's/$/ of 16 method extremes drawn/'
"$ROPELAB" freqs --dim 128 --base 10000 --train-len 4096 --method linear,ntk,yarn,llama3,dynamic,p-rope \
  --ramp code,paper --factor 8 --low-freq-factor 1 --high-freq-factor 4 --seq-len 32768 --fraction 0.75 \
  -o mr.csv || exit 1
gnuplot -c "$plots/methods_ratio.gp" mr.csv mr.svg || exit 1
echo "methods_ratio:"
layout mr.svg
gnuplot -c "$plots/methods_ratio.gp" mr.csv mr.table table || exit 1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } !/^#/ && !s[$c["method"] "," $c["ramp"]]++ { print $c["method"], $c["ramp"] }' mr.csv |
  while read -r m r; do
    drawn extremes mr.table mr.csv ratio --x pair --where method=$m --where ramp=$r --positive | sed "s/^/$m $r: /"
  done
for p in "0 0.125" "63 0.125" "0 1" "63 0.0175439"; do
  # shellcheck disable=SC2086 # two words: x and y
  drawn point mr.table $p
done
