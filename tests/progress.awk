# progress.awk: tests/run.sh's progress per suite.  Reads the output of
# `meson test --list` (first file: which suite has how many tests), then
# the output of `meson test` as it streams (second file, or -), copies every
# line to stdout, and when the last test of a suite has finished prints to
# stderr one line: "run.sh: STAGE: suite NAME done: N passed, N failed,
# N skipped (K of S suites)".  Meson's result lines are
# "I/T project:suite / name STATUS ...".
# Usage: awk -v stage=LABEL -f progress.awk LISTFILE - < meson-output
FNR == NR {
  if ($2 == "/" && NF >= 3) {
    if (!($1 in total)) nsuites++
    total[$1]++
  }
  next
}
{
  print; fflush()
  if ($1 !~ /^[0-9]+\/[0-9]+$/ || $3 != "/" || !($2 in total)) next
  s = $2; st = $5
  if (st == "OK" || st == "EXPECTEDFAIL") pass[s]++
  else if (st == "SKIP") skip[s]++
  else fail[s]++
  if (++done[s] == total[s]) {
    finished++
    name = s; sub(/^[^:]*:/, "", name)
    printf "run.sh: %s: suite %s done: %d passed, %d failed, %d skipped (%d of %d suites)\n", \
      stage, name, pass[s], fail[s], skip[s], finished, nsuites > "/dev/stderr"
    fflush("/dev/stderr")
  }
}
