# bound men --base B: is B enough for L, and the largest L it is enough
# for.  The numbers, computed independently of ropelab: Llama 3
# (base 500000, d 128) at 128K tokens first has B_r < 0 at r = 18438, and
# Qwen2 (base 1e6) at r = 27115; so neither is enough for 131072, and the
# largest L is that r (every r < L must pass).  At 16K Llama 3's base is
# enough (18438 > 16383): no first failure below L.  b_first_fail must be
# negative (its digits are not pinned: awk checks the sign).
"$ROPELAB" bound men --base 500000 --len 131072 --dim 128 --no-meta | cut -d, -f1-6
"$ROPELAB" bound men --base 1e6 --len 131072,65536 --dim 128 --no-meta --no-header |
  cut -d, -f1-6
"$ROPELAB" bound men --base 500000 --len 16384 --dim 128 --no-meta
"$ROPELAB" bound men --base 500000 --largest-len --dim 128 --no-meta |
  awk -F, 'NR == 1 { print; next } { print $1 "," $2 "," $3 "," $4 "," $5 "," ($6 < 0 ? "negative" : "NOT NEGATIVE") }'
# the search options search for a base: refused with --base
"$ROPELAB" bound men --base 500000 --len 4096 --search fine 2>&1; echo "rc $?"
