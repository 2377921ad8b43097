# The metadata once: the sweep (columns, number of points, values in the
# form the columns hold them: 1e4 is 10000), then every setting; one that
# differs between points is written per value of the option it depends
# on: rot defaults to dim (ropelab help decay), so rot[dim:4]=4 and
# rot[dim:8]=8; base and dim themselves are in their columns.
"$ROPELAB" decay --to 2 --base 500,1e4 --dim 4,8 | grep '^#' |
  sed "s|^# command=.* decay |# command=ROPELAB decay |"
