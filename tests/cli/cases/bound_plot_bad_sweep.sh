# a sweep's --plot draws the table it writes; a shard is a part of it, so
# --plot with --shard is refused and nothing is written (without -o the
# table goes to standard output and the figure is drawn: plot_sweep_methods)
"$ROPELAB" bound men --base 1e4,5e5 --shard 1/2 --plot x.png
rc=$?
ls -A
exit $rc
