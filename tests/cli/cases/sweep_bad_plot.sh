# a sweep's --plot draws the table it writes, so it needs the header row
exec "$ROPELAB" decay --base 500,1e4 --plot x.png --no-header
