# --plot is listed in the help of the commands that draw a figure, and
# only there: params, compare and angles refused it after listing it.
for c in freqs decay profile matrix params compare angles; do
  echo "$c $("$ROPELAB" $c --help | grep -c -- '--plot IMAGE')"
done
