#!/bin/sh
# helpscan.sh ROPELAB: what the help texts of the binary ROPELAB declare,
# one line per option of each command, tab-separated:
#   COMMAND  OPTION  KIND  VALUES
# KIND is 'flag' (no value), 'file' (a path: the value's name holds FILE
# or IMAGE, or the option ends in -file) or 'value'; VALUES lists the
# names an enumerated option accepts, space-separated, as the binary
# itself says when given an empty name ("expected a, b or c"), or as
# the help writes them (yes|no).  The commands are those 'ROPELAB --help'
# lists.  Used by completion.sh and man.sh, so that what they install
# cannot drift from the help; tests/cli/cases/completion_* check it.
set -eu
bin=$1

"$bin" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
  on && /^  [a-z][a-z0-9-]*  / { print $1 }' | while read -r cmd; do
  # An option line starts with blanks, then "-x, --name" or "--name"; a
  # second option may follow after ", " (--beta-fast X, --beta-slow Y).
  # A value follows a name after exactly one blank.
  "$bin" "$cmd" --help | awk -v cmd="$cmd" '
    /^ +(-[a-zA-Z], )?--[a-z]/ {
      line = $0; short = ""
      if (match(line, /^ +-[a-zA-Z], /)) short = substr(line, RLENGTH - 3, 2)
      sub(/^ +(-[a-zA-Z], )?/, "", line)
      while (match(line, /^--[a-z][a-z0-9-]*/)) {
        name = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1)
        arg = ""
        if (match(line, /^ [^ ,]+/)) { arg = substr(line, 2, RLENGTH - 1); line = substr(line, RLENGTH + 1) }
        kind = arg == "" ? "flag" : (arg ~ /FILE|IMAGE/ || name ~ /-file$/) ? "file" : "value"
        vals = ""
        if (arg ~ /^[a-z0-9-]+(\|[a-z0-9-]+)+$/) { vals = arg; gsub(/\|/, " ", vals) }
        if (!(name in seen)) { seen[name] = 1; print cmd "\t" name "\t" kind "\t" vals }
        if (short != "" && !(short in seen)) { seen[short] = 1; print cmd "\t" short "\t" kind "\t" vals }
        short = ""
        if (line !~ /^, --/) break
        line = substr(line, 3)
      }
    }'
done | while IFS='	' read -r cmd name kind vals; do
  if [ "$kind" = value ] && [ -z "$vals" ]; then
    # An enumerated option names its alternatives when refusing a value
    # ("expected a, b or c", "expected one of a, b, c"): asked with an
    # empty value, then a nonsense one; the unknown option after it stops
    # the command before it runs anything.
    for probe in '' zzqqzz; do
      msg=$("$bin" "$cmd" "$name" "$probe" --helpscan-no-such-option 2>&1 >/dev/null || true)
      vals=$(printf '%s\n' "$msg" | sed -n 's/.*expected \(one of \)\{0,1\}//p' |
        awk '{ gsub(/,/, ""); gsub(/ or /, " "); for (i = 1; i <= NF; i++) if ($i !~ /^[a-z0-9][a-z0-9._-]*$/ || $i ~ /^(a|an|one)$/) exit
               if (NF >= 2) print }')
      [ -n "$vals" ] && break
    done
  fi
  printf '%s\t%s\t%s\t%s\n' "$cmd" "$name" "$kind" "$vals"
done
