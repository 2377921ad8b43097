#!/bin/sh
# file_headers.sh TOP: every C file of src/ and tests/ opens with a
# comment naming itself ("/* name.c: ..."), so that a file renamed or
# moved does not keep a header that sends the reader to a file that no
# longer exists.  Prints each offender; exit 1 if any.
top=$1 bad=0
for f in $(cd "$top" && find src tests -name '*.[ch]' | sort); do
  named=$(sed -n '1s|^/\* \([A-Za-z0-9_./-]*\.[ch]\)[:,].*|\1|p' "$top/$f")
  [ -z "$named" ] && continue # a header that names no file
  if [ "$named" != "$(basename "$f")" ]; then
    echo "$f: its header names '$named'"
    bad=1
  fi
done
[ $bad = 0 ] && echo "every file header names its own file"
exit $bad
