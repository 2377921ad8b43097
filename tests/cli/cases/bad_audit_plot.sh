# audit draws no figure: --plot was taken and ignored (exit 0, no image);
# it is refused before the file is read.
printf '1\n0.1\n' > inv.csv
exec "$ROPELAB" audit inv.csv --plot fig.png
