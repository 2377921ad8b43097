# issue 33 item 5: 2^32 + 1 log-spaced distances in 1..4 (22 CPU minutes with
# mc before; bound alone 4.3e9 x 10 us = 11.9 h): refused up front with the most
# an hour allows, 3600 / (2 us + 64 x 0.125 us) = 360000000.
"$ROPELAB" decay --log --from 1 --to 4 --points 4294967297
