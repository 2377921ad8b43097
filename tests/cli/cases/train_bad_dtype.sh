# --dtype takes float64 or float32 only: another name is refused naming both
# (exit 2), a near miss gets the suggestion every enumerated option gives.
exec "$ROPELAB" train --dtype half
