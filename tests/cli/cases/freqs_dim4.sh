# theta_i = 100^(-2i/4): 1 and 0.1; wavelength 2 pi / theta: the doubles
# nearest 2 pi and 2 pi / fl(0.1), from a 60-digit pi (Python decimal).
exec "$ROPELAB" freqs --dim 4 --base 100 --no-meta
