#!/bin/sh
# train_step_cpu.sh OLD NEW: the CPU seconds of a training run, two
# ropelab binaries interleaved (old, new, old, new, ...), for a machine
# shared with other work where wall time says little.  For each scheme
# (SCHEMES, default rope xl deberta tupe) and thread count (THREADS,
# default 1 2), ROUNDS rounds (default 3) of `train --steps STEPS`
# (default 300) at the scheme's other defaults; the CPU time is the
# run's own train_cpu_s (its metadata: the training steps, not the
# evaluation, which runs at --eval-samples 8).  Prints CSV:
# scheme,threads,round,binary,cpu_s,load1 (the 1-minute load average
# before the run), then per scheme and threads the medians and new/old.
set -eu
old=$1 new=$2
steps=${STEPS:-300} rounds=${ROUNDS:-3}
schemes=${SCHEMES:-"rope xl deberta tupe"} threads=${THREADS:-"1 2"}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "scheme,threads,round,binary,cpu_s,load1"
for s in $schemes; do
  for th in $threads; do
    r=1
    while [ "$r" -le "$rounds" ]; do
      for b in old new; do
        eval bin=\$$b
        load=$(cut -d' ' -f1 /proc/loadavg)
        "$bin" train --scheme "$s" --steps "$steps" --threads "$th" --eval-samples 8 --quiet \
          --eval-output "$dir/e.csv" > /dev/null
        cpu=$(sed -n 's/^# train_cpu_s=//p' "$dir/e.csv")
        echo "$s,$th,$r,$b,$cpu,$load" | tee -a "$dir/all.csv"
      done
      r=$((r + 1))
    done
  done
done
echo "scheme,threads,old_median_cpu_s,new_median_cpu_s,new_over_old"
awk -F, '
  function med(s,   n, a, i, j, t) { n = split(s, a, " ");
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  { k = $1 "," $2; v[k "," $4] = v[k "," $4] " " $5; if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
  END { for (i = 1; i <= n; i++) { k = order[i]; o = med(v[k ",old"]); w = med(v[k ",new"]);
        printf "%s,%.3f,%.3f,%.3f\n", k, o, w, w / o } }' "$dir/all.csv"
