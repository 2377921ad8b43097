# the header row of each measure, in the documented order.
"$ROPELAB" decay --to 0 --no-meta --measure similarity,bound | head -n 1
"$ROPELAB" decay --to 0 --no-meta --measure mc --samples 4 | head -n 1
