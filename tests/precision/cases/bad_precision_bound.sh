# The bounds are defined on exact values: a framework pipeline is refused
# (one line, exit 2), exact and fp64 are taken.
"$ROPELAB" bound pi --precision hf-bf16 --dim 8
