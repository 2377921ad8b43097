# table_gnuplot.sh: sourced by a golden case (`. "$(dirname "$0")/../table_gnuplot.sh"`)
# to put a stand-in gnuplot first on PATH: it runs the real one on
# ropelab's script with the "table" terminal, which writes the drawn
# points as text to NAME.table in the case's directory (NAME the image's
# name without .png), and leaves a one-word image so ropelab's checks
# pass.  Exit 77 (skip) without gnuplot.
real=$(command -v gnuplot) || { echo "no gnuplot" >&2; exit 77; }
mkdir -p bin
cat > bin/gnuplot <<EOF2
#!/bin/sh
# called as: gnuplot -c SCRIPT DATA IMAGE TERMINAL
"$real" -c "\$2" "\$3" "$PWD/\$(basename "\$4" | sed 's/\.png.*//').table" table &&
  echo table > "\$4"
EOF2
chmod +x bin/gnuplot
PATH=$PWD/bin:$PATH
