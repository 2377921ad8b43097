# --tolerance 1e-17: 1 + 1e-17 == 1 in double, so the fine grid
# p (1 + T)^k never advanced and bound men looped forever.  Refused, exit 2,
# naming the smallest step honoured, 2^-45 (Python: repr(2**-45) =
# 2.842170943040401e-14); just below it, 2.84217094304e-14, is refused too.
# timeout turns a regression into exit 124, not a hang.
for t in 1e-17 2.84217094304e-14; do
  timeout 20 "$ROPELAB" bound men --len 1024 --search fine --tolerance $t 2> err.txt
  echo "$t: status $? $(grep -c 'from 2^-45 = 2.842170943040401e-14' err.txt)"
done
