# metadata: version, the command line (shell-quoted), then every effective
# parameter, defaults included, and the Monte Carlo seed.
"$ROPELAB" decay --to 2 --measure mc,bound --samples 10 --seed 5 -o 'a b.csv' || exit 1
grep '^#' 'a b.csv' | sed "s|^# command=.* decay |# command=ROPELAB decay |"
