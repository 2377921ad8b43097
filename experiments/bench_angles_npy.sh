#!/bin/sh
# bench_angles_npy.sh [N [RUNS]]: a 10^6 (N) x 64-pair RoPE table as a
# .npy file: `ropelab angles --dim 128 --to N-1 --format pairs -o T.npy
# --threads 1` (exact angles, within 0.55 ulp) against the numpy peer
# bench_angles_npy.py (np.cos/np.sin of the double products m theta, not
# reduced exactly, then np.save), interleaved, CPU time (user + sys) and
# wall time with the load average.  Debian's python3-numpy is needed
# (installed through setup.sh when missing).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000000} runs=${2:-2}
ROPELAB_EXTRA_NEED="time:/usr/bin/time python3-numpy:/usr/lib/python3/dist-packages/numpy" \
  "$top/experiments/setup.sh" build-bench -Dbuildtype=release >&2
ropelab=$top/build-bench/src/ropelab
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
timed() { # label command...
  l=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" >"$tmp/o"
  awk -v l="$l" -v load="$(cut -d' ' -f1 /proc/loadavg)" -v extra="$(cat "$tmp/o")" \
    '{ printf "%-8s cpu %7.2f s  wall %7.2f s  peak %5d MiB  load %s  %s\n", l, $2 + $3, $1, $4 / 1024, load, extra }' "$tmp/t"
  rm -f "$tmp"/*.npy
}
echo "a $n x 64-pair table (pos, cos, sin: $n x 129 doubles) into a .npy file, $runs interleaved rounds"
i=0
while [ "$i" -lt "$runs" ]; do
  timed ropelab "$ropelab" angles --dim 128 --to $((n - 1)) --format pairs --threads 1 -o "$tmp/r.npy"
  timed numpy "$py" "$top/experiments/bench_angles_npy.py" "$n" "$tmp/p.npy"
  i=$((i + 1))
done
