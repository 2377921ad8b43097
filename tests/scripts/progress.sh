#!/bin/sh
# progress.sh PROGRESS.AWK: tests/run.sh's per-suite progress on a made-up
# meson run of two suites (a: 3 tests, b: 2), finishing interleaved, with
# each status meson prints.  Expected, counted by hand: suite b is done
# after line 4 (its 2 tests: one OK, one SKIP), suite a after line 5 (OK,
# EXPECTEDFAIL pass; FAIL fails); every input line is copied to stdout.
set -u
awkf=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/list" <<'LIST'
ninja: no work to do.
proj:a / one
proj:a / two
proj:a / three
proj:b / four
proj:b / five
LIST
cat >"$tmp/run" <<'RUN'
ninja: Entering directory `build'
1/5 proj:a / one   OK              0.01s
2/5 proj:b / four  OK              0.02s
3/5 proj:a / two   FAIL            0.03s   exit status 1
--- command ---
4/5 proj:b / five  SKIP            0.00s
5/5 proj:a / three EXPECTEDFAIL    0.05s

Ok:                 2
RUN
cat >"$tmp/want" <<'WANT'
run.sh: st: suite b done: 1 passed, 0 failed, 1 skipped (1 of 2 suites)
run.sh: st: suite a done: 2 passed, 1 failed, 0 skipped (2 of 2 suites)
WANT
awk -v stage=st -f "$awkf" "$tmp/list" - <"$tmp/run" >"$tmp/out" 2>"$tmp/err" || { echo "awk failed"; exit 1; }
cmp -s "$tmp/out" "$tmp/run" || { echo "stdout is not the input:"; diff "$tmp/run" "$tmp/out"; exit 1; }
cmp -s "$tmp/err" "$tmp/want" || { echo "progress lines differ:"; diff "$tmp/want" "$tmp/err"; exit 1; }
echo "ok"
