# figures: profile.gp
# profile --plot as a reader meets it (issue 36, item 7): its defaults
# (rope alone: two panels), three schemes (two shared panels, each scheme
# divided by its maximum), five, eight and all twelve (one panel per
# scheme).  The SVG's layout (svg_layout.py, at the SVG's and the PNG's
# text size): no title line past the page (the subtitle was cut at both
# edges), no key over another panel's label (xl's and deberta's keys sat
# on the x label of the panel above), every row of panels with a y label
# naming its unit (there was none: the logit is q.k/sqrt(d), divided by
# its maximum it has none) and the x axis in tokens.  Drawn (the table
# terminal, --plot-normalize none so the curves are the CSV's numbers):
# each scheme's _same and _mean column reaches its smallest and largest
# value.  The parameters the papers train (T5's bucket biases, DeBERTa's
# relative embeddings, Transformer-XL's W_r, u, v, TUPE's positions and
# projections, a learned table: Raffel et al. 2020, He et al. 2021, Dai
# et al. 2019, Ke et al. 2021, Devlin et al. 2019) are random draws from
# the seed here: the CSV's trained_params line names exactly those five
# among the chosen schemes and the figure's title says so; rope and
# alibi train nothing positional, so rope alone has no such line.
. "$(dirname "$0")/../figure.sh"
"$ROPELAB" profile -o p.csv --plot p.svg || exit 1
echo "defaults:"
layout p.svg
echo "trained_params lines: $(grep -c '^# trained_params=' p.csv)"
for s in rope,t5,xl rope,alibi,t5,deberta,xl rope,alibi,t5,deberta,xl,sinusoidal,learned,tupe all; do
  "$ROPELAB" profile --scheme $s --dim 16 --to 64 --samples 8 -o p.csv --plot p.svg || exit 1
  echo "--scheme $s:"
  layout p.svg
  sed -n 's/^# trained_params=random draws from seed 1, not trained: //p' p.csv |
    awk -F'; ' '{ for (i = 1; i <= NF; i++) { n = $i; sub(/:.*/, "", n); printf "%s%s", (i > 1 ? " " : "drawn: "), n } print "" }'
  grep -o '[a-z0-9, ]*: positional parameters are random draws (seed 1), not trained' p.svg
  gnuplot -c "$plots/profile.gp" p.csv p.table table both none || exit 1
  cols=$(head -n 1 p.csv | tr ',' '\n' | grep -E '_(same|mean)$' | tr '\n' ',' | sed 's/,$//')
  drawn extremes p.table p.csv "$cols" | grep -c ': drawn$' | sed 's/$/ extremes drawn/'
  drawn extremes p.table p.csv "$cols" | grep 'NOT drawn'
done
exit 0
