# The Monte Carlo mean checks judge a mean in 4 standard errors estimated
# from --trials samples: Student's t with N - 1 degrees of freedom, whose
# tail P(|t| > 4) is 3.1e-3 at N = 10 against 6.3e-5 for the normal the
# tolerance assumes; N >= 100 keeps it within 2x (1.2e-4).  99 is refused
# before any check runs (nothing on stdout).
exec "$ROPELAB" check --trials 99 --only norm_preservation,mc_self_mean
