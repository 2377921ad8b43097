# A NUL byte in a parameter file: C string functions would stop at it and
# silently drop the rest of the line (slope 0.5 then garbage was read as
# 0.5, exit 0).  Expected: a format error naming file and line, exit 2.
printf 'head,slope\n0,0.5\000garbage\n1,0.25\n' > nul.csv || exit 99
exec "$ROPELAB" params --scheme alibi --heads 2 --params nul.csv
