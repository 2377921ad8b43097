# An option that none of the chosen schemes (or the chosen mode) takes is
# an error, never silently ignored (issue 20 item 8): T5's buckets for
# ALiBi, yarn for a scheme with no rotation, the base for T5, --points
# with --by pair.  Accepted where it applies: the base of sinusoidal, the
# buckets when the list holds t5.
for a in "matrix --scheme alibi --buckets 8 --len 4" "profile --scheme alibi --method yarn" \
         "profile --scheme t5 --base 500" "precision --by pair --points 5" \
         "matrix --scheme alibi --past clamp --len 4"; do
  "$ROPELAB" $a >out 2>err; echo "rc $? $(cat err)"; [ -s out ] && echo "  stdout not empty"
done
"$ROPELAB" profile --scheme sinusoidal --base 500 --to 2 >/dev/null; echo "sinusoidal --base: rc $?"
"$ROPELAB" profile --scheme alibi,t5 --buckets 16 --to 2 >/dev/null; echo "alibi,t5 --buckets: rc $?"
exit 0
