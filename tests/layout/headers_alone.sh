#!/bin/sh
# headers_alone.sh TOP CC: every module header of the public API
# (src/ropelab/*.h) compiles on its own, as C11 with the project's
# warnings as errors, so that each includes what it uses (a caller may
# include <ropelab/decay.h> without the umbrella); and the umbrella
# ropelab.h compiles as C++ (its extern "C" blocks) when a C++ compiler
# is there.  Prints each offender; exit 1 if any.
top=$(cd "$1" && pwd) cc=${2:-cc} bad=0 n=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for h in "$top"/src/ropelab/*.h; do
  n=$((n + 1))
  printf '#include "%s"\n#include "%s"\n' "$h" "$h" > "$tmp/t.c" # twice: its guard
  if ! "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only "$tmp/t.c" 2> "$tmp/err"; then
    echo "$h does not compile alone: $(grep -m1 error "$tmp/err")"
    bad=1
  fi
done
if command -v c++ >/dev/null 2>&1; then
  printf '#include "%s/src/ropelab.h"\nint main() { return rl_strerror(0) == 0; }\n' "$top" > "$tmp/t.cc"
  c++ -Wall -Werror -fsyntax-only "$tmp/t.cc" 2> "$tmp/err" ||
    { echo "ropelab.h does not compile as C++: $(grep -m1 error "$tmp/err")"; bad=1; }
fi
[ $bad = 0 ] && echo "$n module headers compile alone"
exit $bad
