# --sigma 1e77 wrote the header, then failed (exit 3) on an infinite
# standard error.  The accepted range is checked before anything is
# written: 1e101 is refused with exit 2 and an empty stdout.
exec "$ROPELAB" decay --measure mc --sigma 1e101 --to 2 --samples 10
