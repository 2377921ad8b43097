# figures: freqs.gp
# freqs --plot: plain RoPE (one panel) and YaRN (a second panel with each
# pair's ratio to RoPE), layout at both text sizes.  Drawn (table
# terminal): theta is drawn as log10(theta) on linear axes (the
# wavelength axis is linked to it).  Closed forms (RoFormer eq. 15,
# theta_i = 10000^(-2i/128)): pair 0 at log10 theta = 0 and pair 63 at
# -4 x 126/128 = -3.9375; YaRN at s = 8 with L = 4096 keeps pair 0
# (wavelength 2 pi, far below L / beta_fast = 128: ratio 1) and divides
# pair 63 by s (wavelength 2 pi 10000^(126/128) > L / beta_slow: ratio
# 1/8 = 0.125, log10 theta = -3.9375 - log10 8 = -4.840590), Peng et
# al. 2023 eq. 17.  The CSV's theta and ratio extremes are drawn too.
. "$(dirname "$0")/../figure.sh"
for m in rope yarn; do
  f=
  [ $m = yarn ] && f="--factor 8"
  # shellcheck disable=SC2086 # $f: no option or two words
  "$ROPELAB" freqs --dim 128 --train-len 4096 --method $m $f -o f.csv --plot f.svg || exit 1
  echo "--method $m:"
  layout f.svg
  gnuplot -c "$plots/freqs.gp" f.csv f.table table || exit 1
  drawn point f.table 0 0
  if [ $m = rope ]; then
    drawn point f.table 63 -3.9375
  else
    drawn point f.table 63 -4.840590
    drawn point f.table 0 1
    drawn point f.table 63 0.125
    drawn extremes f.table f.csv ratio --x pair --panel 2
  fi
  awk -F, 'NR > 1 && !/^#/ { print $1 "," log($2) / log(10) }' f.csv | sed '1i pair,log10_theta' > lt.csv
  drawn extremes f.table lt.csv log10_theta --x pair --panel 1
done
exit 0
