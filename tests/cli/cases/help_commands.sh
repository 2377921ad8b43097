# every command has help on stdout with exit 0.
for c in freqs decay check; do
  "$ROPELAB" help $c | head -n 1
done
