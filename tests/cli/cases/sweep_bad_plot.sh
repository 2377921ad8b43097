# a sweep's --plot draws the table it writes, so it needs -o FILE
exec "$ROPELAB" decay --base 500,1e4 --plot x.png
