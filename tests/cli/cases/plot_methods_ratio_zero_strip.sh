# plots/methods_ratio.gp: p-RoPE's unrotated pairs (ratio 0) sit on a
# strip below the log axis as points only; no line joins them to the
# rotated pairs.  d = 16, p = 0.5: the highest-frequency p * d/2 = 4 pairs
# rotate (ratio 1, pairs 0..3), pairs 4..7 have ratio 0 (by hand).  From
# gnuplot's table output: the titled (line) curves hold no point on the
# strip (y = 1/96, the script's "0"), p-RoPE's titled curve holds pairs
# 0..3 at 1, and one untitled curve (points) holds pairs 4..7 on the strip.
command -v gnuplot >/dev/null || exit 77
plots=$(dirname "$0")/../../../plots
"$ROPELAB" freqs --dim 16 --base 10000 --method linear,p-rope --factor 2 --fraction 0.5 -o r.csv || exit 1
gnuplot -c "$plots/methods_ratio.gp" r.csv r.table table || exit 1
awk '/^# Curve [0-9]+ of/ { c++; t[c] = "" } /^# Curve title/ { t[c] = substr($0, 16) }
  /^ *[0-9]/ && $3 == "i" { s = ($2 > 0.0104 && $2 < 0.0105) ? "strip" : $2
    p[c] = p[c] " " $1 ":" s }
  END { for (i = 1; i <= c; i++) print (t[i] == "" ? "(untitled)" : t[i]) p[i] }' r.table
