# A near miss of a --dtype name gets the suggestion (exit 2).
exec "$ROPELAB" train --dtype float16
