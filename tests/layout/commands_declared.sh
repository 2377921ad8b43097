#!/bin/sh
# commands_declared.sh TOP: every command is a declaration that the one
# driver runs (issue 34, src/cli/cmd.h), so
#   - no file of src/cli but the driver (driver.c) and the top level
#     (main.c, before the command is known) calls getopt_long;
#   - every `const struct rl_cmd rl_cmd_X = {...}` in src/cli/commands has
#     run NULL and a declaration (its second member NULL);
#   - no compute() or run() function in src/cli/commands is longer than
#     MAX lines (60): a command's work is the core's plan and measure, and
#     the command only calls and writes; what grows past that is policy
#     that belongs in the core, or a static helper with a name of its own.
# Prints each offender as FILE:LINE: WHAT; exit 1 if any.
#
# KNOWN lists files that another branch is converting, one a word: their
# offences are reported as known; once a known file has none, the test
# fails until it is taken out of KNOWN (so the list only shrinks).
top=$1
MAX=60
KNOWN=''
cd "$top" || exit 1
files=$(find src/cli -name '*.c' | sort)
# shellcheck disable=SC2086 # the file list: names without blanks
awk -v known="$KNOWN" -v max="$MAX" '
  function offend(f, l, what) {
    if (f in isknown) { print f ":" l ": " what " (known: being converted)"; kh[f] = 1 }
    else { print f ":" l ": " what; bad = 1 }
  }
  BEGIN { split(known, kl, " "); for (k in kl) isknown[kl[k]] = 1; ncmd = 0 }
  FNR == 1 { infn = 0; incmd = 0 }
  # getopt_long called (comments name it without a parenthesis)
  /getopt_long[ \t]*\(/ && FILENAME != "src/cli/driver.c" && FILENAME != "src/cli/main.c" {
    offend(FILENAME, FNR, "calls getopt_long (only the driver parses options)")
  }
  # a command object: join its lines up to the closing "};"
  FILENAME ~ /^src\/cli\/commands\// && /^const struct rl_cmd rl_cmd_[a-z0-9_]+ = \{/ {
    incmd = 1; cmdline = FNR; obj = ""
  }
  incmd { obj = obj " " $0 }
  incmd && /\};/ {
    incmd = 0; ncmd++
    sub(/^[^{]*\{[ \t]*/, "", obj)
    n = split(obj, m, ",")
    second = m[2]; gsub(/[ \t]/, "", second)
    last = m[n]; sub(/\}.*/, "", last); gsub(/[ \t]/, "", last)
    if (second != "NULL") offend(FILENAME, cmdline, "a run() of its own (" second "), not a declaration")
    else if (last == "NULL" || last == "") offend(FILENAME, cmdline, "no declaration")
  }
  # compute() and run() at file scope: their length in lines
  FILENAME ~ /^src\/cli\/commands\// && /^(static )?int (compute|run)\(/ { infn = FNR; head = $0 }
  infn && /^\}/ {
    n = FNR - infn + 1
    if (n > max) offend(FILENAME, infn, n " lines in " head " (at most " max ")")
    infn = 0
  }
  END {
    if (ncmd < 15) { print "found only " ncmd " command objects: the commands moved?"; exit 1 }
    for (k in isknown) if (!(k in kh)) { print k " offends no more: remove it from KNOWN"; bad = 1 }
    nk = 0; for (k in kh) nk++
    if (!bad) print ncmd " commands: each a declaration, no getopt_long outside the driver, no compute() over " max " lines" (nk ? ", but for the " nk " known files" : "")
    exit bad
  }' $files
