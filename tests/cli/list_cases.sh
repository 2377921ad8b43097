#!/bin/sh
# list_cases.sh DIR: the golden cases of DIR, one NAME per line (every
# NAME.sh there), sorted; meson's configure step reads it.
cd "$1" || exit 1
for f in *.sh; do
  [ -f "$f" ] && echo "${f%.sh}"
done | LC_ALL=C sort
