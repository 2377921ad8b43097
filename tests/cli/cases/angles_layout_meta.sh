# The layout= metadata of angles says where the values put each pair,
# read from the values themselves: at pos 1 with d = 8, base 1e4, pair 0
# (theta 1) has cos 1 = 0.5403 and pair 1 (theta 0.1) cos 0.1 = 0.9950,
# so cos_d1 = cos_d0 means interleaved (pair 0 on dims 0, 1) and
# cos_d4 = cos_d0 with cos_d1 != cos_d0 means half (dims 0, 4).  hf is
# the half layout whatever --layout says (its help); dims follows --layout.
for f in hf dims; do
  for l in interleaved half; do
    "$ROPELAB" angles --format "$f" --layout "$l" --dim 8 --to 1 >t.csv || exit 1
    meta=$(sed -n 's/^# layout=//p' t.csv)
    data=$(grep '^1,' t.csv | awk -F, '{ print $3 == $2 ? "interleaved" : $6 == $2 ? "half" : "neither" }')
    echo "--format $f --layout $l: data $data, metadata $meta"
  done
done
