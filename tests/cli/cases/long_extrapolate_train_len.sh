# issue 33 item 5: a learned table of L x d = 2^31 x 128 doubles is 2.2 TB:
# refused up front, largest L at d = 128: 2e9 / 8 / 128 = 1953125.
"$ROPELAB" extrapolate --train-len 2147483648 --eval-len 2147483648
