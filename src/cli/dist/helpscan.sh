#!/bin/sh
# helpscan.sh ROPELAB: what the help texts of the binary ROPELAB declare,
# one line per option of each command, tab-separated:
#   COMMAND  OPTION  KIND  VALUES
# KIND is 'flag' (no value), 'file' (a path: the value's name holds FILE
# or IMAGE, or the option ends in -file) or 'value', or 'sub' for the
# line 'COMMAND @sub sub NAMES' of a command with subcommands; VALUES lists the
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
  # A command with subcommands says so in its usage line
  # ("usage: ropelab bound men|liu|pi|yarn [OPTIONS]"): one line
  # COMMAND @sub sub NAMES.  An option whose help says "or 'all'" is
  # marked value+all: 'all' joins the names its message lists.
  "$bin" "$cmd" --help | awk -v cmd="$cmd" '
    NR == 1 && $1 == "usage:" && $3 == cmd && $4 ~ /^[a-z0-9-]+(\|[a-z0-9-]+)+$/ {
      subs = $4; gsub(/\|/, " ", subs); print cmd "\t@sub\tsub\t" subs
    }
    /^ +(-[a-zA-Z], )?--[a-z]/ {
      all = $0 ~ /or .all. /
      line = $0; short = ""
      if (match(line, /^ +-[a-zA-Z], /)) short = substr(line, RLENGTH - 3, 2)
      sub(/^ +(-[a-zA-Z], )?/, "", line)
      while (match(line, /^--[a-z][a-z0-9-]*/)) {
        name = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1)
        arg = ""
        if (match(line, /^ [^ ,]+/)) { arg = substr(line, 2, RLENGTH - 1); line = substr(line, RLENGTH + 1) }
        kind = arg == "" ? "flag" : (arg ~ /FILE|IMAGE/ || name ~ /-file$/) ? "file" : all ? "value+all" : "value"
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
  if [ "$kind" = sub ]; then
    subcmd=$cmd subs=$vals
  fi
  all=
  [ "$kind" = value+all ] && kind=value all=all
  if [ "$kind" = value ] && [ -z "$vals" ]; then
    # An enumerated option names its alternatives when refusing a value
    # ("expected a, b or c", "expected one of a, b, c"): asked with an
    # empty value, then a nonsense one (after each subcommand, if the
    # command has them); the unknown option after it stops the command
    # before it runs anything.
    pres=-
    [ "${subcmd:-}" = "$cmd" ] && pres=$subs
    for pre in $pres; do
      for probe in '' zzqqzz; do
        if [ "$pre" = - ]; then
          msg=$("$bin" "$cmd" "$name" "$probe" --helpscan-no-such-option 2>&1 >/dev/null || true)
        else
          msg=$("$bin" "$cmd" "$pre" "$name" "$probe" --helpscan-no-such-option 2>&1 >/dev/null || true)
        fi
        # names: lowercase first, then any letter (the check unseen_within_L)
        vals=$(printf '%s\n' "$msg" | sed -n 's/.*expected \(one of \)\{0,1\}//p' |
          awk '{ gsub(/,/, ""); gsub(/ or /, " "); for (i = 1; i <= NF; i++) if ($i !~ /^[a-z0-9][a-zA-Z0-9._-]*$/ || $i ~ /^(a|an|one)$/) exit
                 if (NF >= 2) print }')
        [ -n "$vals" ] && break 2
      done
    done
  fi
  case " $vals " in *" all "*) ;; *) [ -n "$all" ] && [ -n "$vals" ] && vals="$vals all" ;; esac
  printf '%s\t%s\t%s\t%s\n' "$cmd" "$name" "$kind" "$vals"
done
