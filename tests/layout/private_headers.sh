#!/bin/sh
# private_headers.sh TOP: module boundaries.  A module of the core
# (src/core/NAME/) includes from outside its own folder only the public
# API (ropelab.h) and the core's one shared internal header,
# src/core/base/internal.h; another module's private header (such as
# schedules/schedule_impl.h or io's reader internals) is refused, and the
# CLI (src/cli) and the public headers (src/ropelab) include nothing of
# src/core at all.  Prints each offender as FILE:LINE: INCLUDE; exit 1 if
# any.
#
# KNOWN lists includes that another branch removes, as "FILE INCLUDE" lines;
# each is reported as known, and the test fails once the include is gone
# so that the line is taken out of this list too.
top=$1 bad=0 n=0
KNOWN=''
known() { printf '%s\n' "$KNOWN" | grep -qxF "$1 $2"; }
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
(cd "$top" && find src -name '*.[ch]' | sort) > "$tmp"
while read -r f; do
  n=$((n + 1))
  case $f in
    src/core/*/*) mod=${f#src/core/}; mod=${mod%%/*} ;;
    *) mod= ;;
  esac
  # every quoted include, with its line number
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$top/$f" |
    sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
    while read -r line inc; do
      case $inc in
        ../base/internal.h | core/base/internal.h) [ -n "$mod" ] && continue ;;
      esac
      target=
      case $inc in
        ../*/*) [ -n "$mod" ] && { target=${inc#../}; target=${target%%/*}; } ;;
        core/*) target=core ;;
        ../core/* | */core/*) target=core ;;
      esac
      [ -z "$target" ] && continue     # a header of the file's own folder, or the API
      [ "$target" = "$mod" ] && continue
      if known "$f" "$inc"; then
        echo "$f:$line: $inc (known: removed by another branch)"
        continue
      fi
      echo "$f:$line: $inc"
      echo x >> "$tmp.bad"
    done
done < "$tmp"
[ -s "$tmp.bad" ] && bad=1
rm -f "$tmp.bad"
# a known include that is gone: take it out of KNOWN
printf '%s\n' "$KNOWN" | while read -r kf kinc; do
  [ -z "$kf" ] && continue
  grep -q "#[[:space:]]*include[[:space:]]*\"$kinc\"" "$top/$kf" 2>/dev/null ||
    { echo "$kf no longer includes $kinc: remove it from KNOWN in $0"; echo x >> "$tmp.gone"; }
done
[ -s "$tmp.gone" ] && bad=1
rm -f "$tmp.gone"
[ $bad = 0 ] && echo "$n files: no module includes another's private header"
exit $bad
