#!/bin/sh
# readme_check.sh: recompute the numbers and claims of the READMEs' prose
# about their figures that no golden test holds, and compare them with the
# READMEs' text (README.md and every experiments/*/README.md, where the
# studies and their figures are, as they read with their lines joined).
# Prints one line per claim and exits 1 when a computed value or the
# READMEs' sentence changes.  About 4 minutes on 2 loaded cores (the
# extrapolate run).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/experiments/setup.sh" "$top/build"
rl=$top/build/src/ropelab
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ropelab-readme.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
text=$(cat "$top/README.md" "$top"/experiments/*/README.md | tr '\n' ' ' | tr -s ' ')
bad=0
claim() { # claim WHAT COMPUTED PHRASE: COMPUTED must be "ok", PHRASE in the READMEs
  if [ "$2" != ok ]; then echo "FAIL $1: computed $2"; bad=1
  elif ! printf '%s' "$text" | grep -qF -- "$3"; then echo "FAIL $1: the READMEs lack \"$3\""; bad=1
  else echo "ok   $1"; fi
}
is() { [ "$1" = "$2" ] && echo ok || echo "$1 (README: $2)"; }

# extrapolate.sh's panel (d): KS distance of the positional logits past L
"$rl" extrapolate --train-len 1024 --eval-len 16384 --dim 128 --samples 64 --seed 1 \
  --draw-contents --distances 0,1:8192:x2,16383 --scheme nope,sinusoidal,learned,t5,alibi,rope \
  --method rope,linear,ntk,yarn,log-n --measure shift -o "$tmp/shift.csv"
ks() { awk -F, -v s="$1" -v m="$2" -v f="$3" '$1 == s && $2 == m && $7 == "ks" { printf f, $11 }' "$tmp/shift.csv"; }
claim "KS alibi, sinusoidal" "$(is "$(ks alibi none %g) $(ks sinusoidal none %.2f)" "1 0.50")" \
  "most for ALiBi (KS = 1: every bias past L is lower) and the absolute sinusoids (0.50)"
claim "KS nope, learned least" "$(is "$(ks nope none %g) $(ks learned none %.2g)" "0 0.0036")" \
  "least for nope (0: it has no positional logit) and learned (0.0036"
claim "KS RoPE methods, t5" "$(is "$(ks rope yarn %.2g) $(ks rope linear %.2g) $(ks t5 none %.2g)" "0.037 0.076 0.06")" \
  "the RoPE methods lie between (0.037 for YaRN to 0.076 for PI), with T5 (0.060)"
min=$(awk -F, '$7 == "ks" && $1 == "rope" { if (m == "" || $11 < m) m = $11 } END { print m }' "$tmp/shift.csv")
max=$(awk -F, '$7 == "ks" && $1 == "rope" { if ($11 > m) m = $11 } END { print m }' "$tmp/shift.csv")
claim "KS RoPE range is yarn..linear" "$(is "$min $max" "$(ks rope yarn %s) $(ks rope linear %s)")" "0.037 for YaRN"

# precision_envelope.sh, base 5e5: bf16's relative-property (logit) error
"$rl" precision --dim 128 --base 500000 --to 131072 --points 48 --precision hf-bf16 -o "$tmp/env.csv"
env=$(awk -F, '!/^#/ && $1 == "hf-bf16" { if ($7 > m) { m = $7; at = $2 ".." $3 } last = $7 }
  END { printf "%.3g %s %.3g", m, at, last }' "$tmp/env.csv")
claim "bf16 logit error maximum" "$(is "$env" "0.0152 80221..102541 0.0135")" \
  "(largest 1.52e-2, in the bin of positions 80221..102541; 1.35e-2 in the last)"

# schemes_profiles.sh: how many of the schemes its figure draws
drawn=$(sed -n 's/.*profile --scheme \([a-z0-9,]*\) .*/\1/p' "$top/experiments/schemes_profiles.sh" | tr ',' '\n' | wc -l)
all=$("$rl" profile --scheme all --to 1 --samples 2 | grep -v '^#' | head -n 1 | tr ',' '\n' | grep -c '_same$')
claim "profiles: $drawn of $all schemes" "$(is "$drawn $all" "8 12")" "profiles.png: 8 of the 12 schemes, one panel each"

# bound pi --plot has the ratio axis (y2), pi_fig5.gp has not
y2=$(grep -c 'y2' "$top/plots/bound_pi.gp" || true) y2fig5=$(grep -c 'y2' "$top/plots/pi_fig5.gp" || true)
claim "ratio axis in bound pi --plot only" "$( [ "$y2" -gt 0 ] && [ "$y2fig5" -eq 0 ] && echo ok || echo "y2 lines: $y2, $y2fig5")" \
  "(\`pi_fig5.sh\` draws the same B(s)/d and line B(s) = d, without that axis)"
exit $bad
