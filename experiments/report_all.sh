#!/bin/sh
# report_all.sh [OUTDIR]: `ropelab report` on every shipped model in
# experiments/models/, one page each in OUTDIR/<model>/ (default
# out/report_all), timed with /usr/bin/time: a line per model with its
# wall, user and system seconds (user and system include the
# subcommands report runs), then the load average, since on a shared
# machine the wall time says more about the other jobs than about report.
# The issue's target: under a minute on two cores per model.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/report_all}

ROPELAB_EXTRA_NEED="time:/usr/bin/time ${ROPELAB_EXTRA_NEED:-}" "$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
printf '%-34s %8s %8s %8s\n' model wall_s user_s sys_s
one() { # one() PAGE CONFIG [OPTION...]: a page into $out/PAGE, timed
  page=$1 cfg=$2
  shift 2
  /usr/bin/time -f "%e %U %S" -o "$out/$page.time" "$ropelab" report "$cfg" -o "$out/$page" --quiet "$@"
  read -r wall user sys <"$out/$page.time"
  printf '%-34s %8s %8s %8s\n' "$page" "$wall" "$user" "$sys"
  rm -f "$out/$page.time"
}
for f in "$top"/experiments/models/*.json; do
  name=$(basename "$f" .json)
  # a model with a RoPE per attention layer type (Gemma 3): one page per
  # type, the types named by the refusal without --layer-type
  if msg=$("$ropelab" freqs --config "$f" 2>&1 >/dev/null) ||
     ! printf '%s\n' "$msg" | grep -q 'missing --layer-type'; then
    one "$name" "$f"
  else
    for t in $(printf '%s\n' "$msg" | grep -o '[a-z_]*_attention' | sort -u); do
      one "$name-$t" "$f" --layer-type "$t"
    done
  fi
done
echo "cores: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
