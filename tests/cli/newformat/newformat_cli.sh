# A format of the test build only (md.c: a Markdown table), used through
# every way a user names a format, by a binary whose commands and output
# layer are the real ones.  Expected table by hand: d = 4, base 100 gives
# RoFormer's theta = 1, 100^(-1/2) = 0.1, wavelengths 2 pi, 20 pi (the
# doubles nearest, Python's repr: 6.283185307179586, 62.83185307179586),
# ratio 1 (rope), band as the CSV labels it; d = 2 has theta_0 = 1 for
# every base.
# -o's extension chooses it
"$ROPELAB" freqs --dim 4 --base 100 --no-meta -o t.md || exit 1
cat t.md
# by name; the metadata as comments before the table
"$ROPELAB" freqs --dim 4 --base 100 --output-format md | grep -E '^<!-- (base|method)=|^\| 1 '
# a sweep, and shards merged into it
"$ROPELAB" freqs --dim 2 --base 100,10000 --no-meta --output-format md
"$ROPELAB" freqs --dim 2 --base 100,10000 --shard 1/2 -o s1.csv &&
  "$ROPELAB" freqs --dim 2 --base 100,10000 --shard 2/2 -o s2.csv &&
  "$ROPELAB" merge s2.csv s1.csv -o m.md && grep -v '^<!--' m.md
# help: listed with its note and extension, by every command and merge
for c in decay merge; do
  "$ROPELAB" $c --help | grep -A5 -e '--output-format' | tr -s ' \n' ' ' |
    grep -o -e 'md (a Markdown table; test build)' -e '\.npy, \.md)'
done
# messages name it: an unknown format, and .npy's list of formats for text
"$ROPELAB" freqs --output-format xml 2>&1 >/dev/null; echo "rc $?"
"$ROPELAB" freqs --dim 4 -o x.npy 2>&1 >/dev/null; echo "rc $?"
# the real binary has no such format: refused by name, CSV by extension
"$ROPELAB_REAL" freqs --output-format md 2>&1 >/dev/null; echo "rc $?"
"$ROPELAB_REAL" freqs --dim 4 --base 100 --no-meta -o r.md && head -1 r.md
