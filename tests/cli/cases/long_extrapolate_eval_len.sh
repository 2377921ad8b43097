# issue 33 item 5: --eval-len 1e8 needs about 1.1 KB a position (112 MB
# measured at 1e5): 110 GB; refused up front before anything is built (the
# learned table of --train-len 1e6 x 128 alone is 1 GB and took minutes).
"$ROPELAB" extrapolate --train-len 1e5 --eval-len 1e8
