# 'help methods' says what vLLM's static NTK does instead of pointing to
# text that is not there ("differs: see above"): no help text refers to
# "see above" or "see below", and the formula the ntk entry gives for
# --variant vllm, theta_i = (base s)^(-2i/r) / s^(2/r), is what freqs
# computes: d = 8, base 1e4, s = 2 gives 10^(-i) 2^(-(2i+2)/8) by hand
# (0.8408964, 0.07071068 = 1/sqrt(200), 0.005946036, 0.0005 = 1e-3/2),
# compared to 1e-15 relative (a few ulp: awk's pow against the core's
# correctly rounded value).
for c in $("$ROPELAB" --help | sed -n '/^commands:/,/^$/p' | grep -E '^  [a-z]' | awk '{ print $1 }') methods; do
  "$ROPELAB" help "$c" | grep -n 'see above\|see below' | sed "s/^/$c: /"
done
"$ROPELAB" help methods | sed -n '/^  ntk /,/^$/p' | grep -c 'vllm: base \* s, then'
"$ROPELAB" freqs --method ntk --variant vllm --factor 2 --dim 8 | grep -v '^#' | awk -F, 'NR > 1 {
  i = $1; want = 10 ^ (-i) * 2 ^ (-(2 * i + 2) / 8); rel = ($2 - want) / want; if (rel < 0) rel = -rel
  printf "pair %d: %s\n", i, rel < 1e-15 ? "ok" : "off by " rel }'
