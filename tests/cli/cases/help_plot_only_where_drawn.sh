# --plot is listed in the help of the commands that draw a figure, and
# only there: params, compare and angles refused it after listing it
# (bound draws each of its four figures).
for c in freqs decay profile matrix params compare angles bound; do
  echo "$c $("$ROPELAB" $c --help | grep -c -- '--plot IMAGE')"
done
