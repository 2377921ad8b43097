# bound pi with a method whose logit is not sum_j h_j e^{i s theta_j}
# (xpos: amplitudes): exit 2 naming the method.  The message used to read
# the schedule after freeing it (AddressSanitizer: heap-use-after-free,
# in the build-san suite).
exec "$ROPELAB" bound pi --method xpos --to 3
