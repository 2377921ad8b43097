# figure.sh: sourced by a figure case (`. "$(dirname "$0")/../figure.sh"`)
# after its header.  Skips (77) without gnuplot, python3 or the font the
# PNG is drawn with.  Gives:
#   $plots              the repository's plots/ folder
#   layout FIG.svg [--no-units]  tests/figures/svg_layout.py at the SVG's own text
#                       size ("svg:") and at the PNG's, 4/3 of it ("png:"):
#                       "svg: layout ok" or one line per problem
#   drawn ARGS...       tests/figures/drawn.py ARGS (extremes, point, curves)
#   np_python           a python3 with numpy (Debian's python3-numpy), for
#                       the cases' independent references; a case that
#                       needs one skips (77) without it
#   with_table CMD...   CMD with a stand-in gnuplot first on PATH that runs
#                       the real one with the "table" terminal: each image
#                       IMG.png or IMG.svg becomes IMG.table (the drawn
#                       points as text) beside the case, the image a word
figdir=$(cd "$(dirname "$0")/.." && pwd)
plots=$(cd "$figdir/../../plots" && pwd)
real_gnuplot=$(command -v gnuplot) || { echo "no gnuplot" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "no python3" >&2; exit 77; }
font=$(fc-match -f '%{file}' sans 2>/dev/null)
[ -f "$font" ] || font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
[ -f "$font" ] || { echo "no DejaVu Sans (fonts-dejavu-core)" >&2; exit 77; }

layout() { # (its variables are named apart from the cases')
  _lay_f=$1
  shift
  for _lay_s in svg png; do
    _lay_sc=1
    [ $_lay_s = png ] && _lay_sc=1.3333
    python3 "$figdir/svg_layout.py" "$_lay_f" "$font" --scale $_lay_sc "$@" | sed "s/^/$_lay_s: /"
  done
}

drawn() { python3 "$figdir/drawn.py" "$@"; }
np_python() {
  for _np_p in /usr/bin/python3 python3; do
    "$_np_p" -c 'import numpy' 2>/dev/null && { echo "$_np_p"; return 0; }
  done
  echo "no python3 with numpy (python3-numpy)" >&2
  exit 77
}

mkdir -p tbin
cat > tbin/gnuplot <<EOF
#!/bin/sh
# called as: gnuplot -c SCRIPT DATA IMAGE TERMINAL [ARGS]
s=\$2 d=\$3 i=\$4
shift 5
"$real_gnuplot" -c "\$s" "\$d" "$PWD/\$(basename "\$i" | sed 's/\.\(png\|svg\|pdf\).*//').table" table "\$@" &&
  echo table > "\$i"
EOF
chmod +x tbin/gnuplot
with_table() { (PATH=$PWD/tbin:$PATH; "$@"); }
