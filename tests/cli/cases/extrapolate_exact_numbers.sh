# Numbers that must be what their docs say (ALiBi: deterministic positional
# logits, so the exact values are known by hand).
# shift at L = 4096, N = 32768: the positional logit of ALiBi's head 0 at
# distance m is -m/2 (slope 1/2), the same in every sample.  Within L,
# m = 0..4095: mean -(4095/2)/2 = -1023.75.  Past L, m = 4096..32767: mean
# -(4096 + 32767)/4 = -9215.75.  Every logit within L is above every one
# past L, so W1 = the difference of the means = (32767 - 4095)/4 + ... =
# N/4 = 8192, and KS = 1.  Printed exactly (all distances, not a thinned
# sample), and the metadata says "over every distance".  The sds, over the
# 2 samples' k distances each (k = 4096 within, 28672 past; values -m/2):
# sqrt(2 (1/4) k (k^2 - 1) / 12 / (2k - 1)), compared to 1e-12 relative.
# retrieval se: at n = 2048 the probability at r = 1024 is about 1.7e-218
# (below 1e-154, where se^2 underflows); p_r = e^{x.x - r/2} / Z with Z
# set by the near keys, so p_1024 / p_512 = e^{-256} in every sample and
# se / mean is the same at both distances (printed: se > 0, and the two
# ratios agree to 1e-6 relative).
# Default lengths with L = 4098: L/4 = 1024.5 is taken as 1024 and said.
"$ROPELAB" extrapolate --scheme alibi --train-len 4096 --eval-len 32768 --lengths 32768 \
  --measure shift --samples 2 > s.csv || exit 1
grep -c '^# shift=.*(over every distance)$' s.csv
awk -F, '$6 == "shift" && $7 !~ /^sd_/ { print $7, $11 }
  $6 == "shift" && $7 ~ /^sd_/ { k = $7 == "sd_within" ? 4096 : 28672
    w = sqrt(2 * 0.25 * k * (k * k - 1) / 12 / (2 * k - 1)); d = $11 / w - 1
    print $7, (d * d < 1e-24 ? "closed form" : "off: " $11 " vs " w) }' s.csv
"$ROPELAB" extrapolate --scheme alibi --train-len 2048 --eval-len 2048 --lengths 2048 \
  --distances 512,1024 --measure retrieval --samples 20 --no-meta > r.csv || exit 1
awk -F, 'NR > 1 { q[$9] = $12 / $11; s[$9] = $12 } END {
  print "se > 0 at r = 1024:", (s[1024] > 0 ? "yes" : "no")
  d = q[1024] / q[512] - 1; print "se/mean equal:", (d * d < 1e-12 ? "yes" : "no") }' r.csv
"$ROPELAB" extrapolate --scheme alibi --train-len 4098 --eval-len 8196 --measure entropy \
  --samples 2 > e.csv || exit 1
sed -n 's/^# default_lengths=//p' e.csv
awk -F, '$7 == "nats" { printf "%s ", $8 } END { print "" }' e.csv
