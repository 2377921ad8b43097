# pairs, dims (both layouts) and hf hold exactly the numbers of long,
# rearranged: awk rebuilds each shape, header included, from the long
# table (text fields copied, never reformatted) and cmp compares it with
# ropelab's.  A partial rotation (rot 8 of dim 12: n = 4 pairs, dims 0..7)
# with a non-integer step and an attention factor != 1 (yarn).  Layouts:
#   interleaved: dim k holds pair floor(k/2); half: pair k mod n.
# hf is dims with the half layout whatever --layout says.
set -e
opts="--dim 12 --rot 8 --method yarn --factor 4 --train-len 64 --from -2 --to 3 --step 0.5 --no-meta"
"$ROPELAB" angles $opts >long.csv
shape() { # shape pairs|interleaved|half
  awk -F, -v shape="$1" '
    NR == 1 { next }
    { if (!($1 in seen)) { seen[$1] = 1; pos[np++] = $1 }
      c[$1, $2] = $3; s[$1, $2] = $4; if ($2 + 1 > n) n = $2 + 1 }
    END {
      w = shape == "pairs" ? n : 2 * n
      sfx = shape == "pairs" ? "" : "_d"
      line = "pos"
      for (k = 0; k < w; k++) line = line ",cos" sfx k
      for (k = 0; k < w; k++) line = line ",sin" sfx k
      print line
      for (j = 0; j < np; j++) {
        p = pos[j]; line = p
        for (t = 0; t < 2; t++)
          for (k = 0; k < w; k++) {
            i = shape == "pairs" ? k : shape == "interleaved" ? int(k / 2) : k % n
            line = line "," (t ? s[p, i] : c[p, i])
          }
        print line
      }
    }' long.csv
}
shape pairs >want_pairs.csv
shape interleaved >want_inter.csv
shape half >want_half.csv
"$ROPELAB" angles $opts --format pairs >pairs.csv
"$ROPELAB" angles $opts --format dims --layout interleaved >inter.csv
"$ROPELAB" angles $opts --format dims --layout half >half.csv
"$ROPELAB" angles $opts --format hf --layout interleaved >hf.csv
wc -l <long.csv
cmp want_pairs.csv pairs.csv && echo "pairs = long rearranged"
cmp want_inter.csv inter.csv && echo "dims interleaved = long rearranged"
cmp want_half.csv half.csv && echo "dims half = long rearranged"
cmp want_half.csv hf.csv && echo "hf (with --layout interleaved) = dims half"
# the attention factor is in the values: not all |cos| <= 1 at position 0
awk -F, '$1 == 0 && $3 > 1 { k++ } END { print k " pairs with cos > 1 at position 0" }' long.csv
