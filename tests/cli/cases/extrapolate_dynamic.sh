# extrapolate --method dynamic: the schedule of the current length, built
# per length.  Expected values from the closed form of dynamic NTK (hf,
# emozilla 2023): base' = base (s n / L - (s - 1))^(r/(r-2)) for n > L,
# the base itself for n <= L.  With s = 2, L = 64 and n = 128 the bracket
# is 3, which is NTK-aware scaling's base' = base 3^(r/(r-2)): dynamic's
# rows at n = 128 must be ntk --factor 3's, and at n <= 64 plain rope's,
# byte for byte (unseen, retrieval, entropy).  Before this case dynamic
# was refused ("needs --seq-len") and --method all left it out silently.
run() {
  "$ROPELAB" extrapolate --scheme rope --train-len 64 --eval-len 128 --lengths 32,64,128 \
    --dim 16 --samples 20 --distances 0,50,100 --measure unseen,retrieval,entropy \
    --no-meta "$@" 2>&1 || echo "failed: $*"
}
at() { awk -F, -v n="$1" '$1 != "scheme" && $8 == n { $2 = ""; print }'; }
run --method dynamic --factor 2 >dyn.csv
run --method ntk --factor 3 >ntk.csv
run --method rope >rope.csv
for n in 32 64; do
  at $n <dyn.csv >a; at $n <rope.csv >b
  echo "n = $n: dynamic = rope: $(cmp -s a b && echo yes || echo no) ($(wc -l <a) rows)"
done
at 128 <dyn.csv >a; at 128 <ntk.csv >b
echo "n = 128: dynamic (s 2) = ntk (s 3): $(cmp -s a b && echo yes || echo no) ($(wc -l <a) rows)"
at 128 <rope.csv >b
echo "n = 128: dynamic differs from rope: $(cmp -s a b && echo no || echo yes)"
"$ROPELAB" extrapolate --scheme rope --method all --factor 2 --train-len 64 --eval-len 128 \
  --dim 16 --measure unseen --no-meta | awk -F, '$2 == "dynamic" { n++ } END { print "--method all: dynamic rows " n }'
