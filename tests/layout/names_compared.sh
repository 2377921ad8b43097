#!/bin/sh
# names_compared.sh TOP: what ropelab knows about a frequency method or a
# positional scheme is in that method's or scheme's own file (its
# declaration: parameters, flags, the names model files give it) and in
# the registries, so no other file of src/ compares a method's or a
# scheme's name: no strcmp/strncmp/memcmp against one ("yarn", "rope2d"),
# no comparison with a type looked up by name (== rl_schedule_type_find,
# rl_scheme_find), no comparison with another file's type object
# (== &rl_sched_yarn), and no closed enum of methods (RL_FORM_*) or of
# the trainer's schemes (RL_TPOS_*, an index RL_TRAIN_POS_IDX_* but for
# the default, == rl_train_pos_find: src/core/train/pos_impl.h).  The
# names are read from the declarations themselves (the first string of
# each rl_schedule_type in src/core/schedules, of each .info in
# src/core/schemes), so a new method is covered with nothing written
# here.  Prints each offender as FILE:LINE: TEXT; exit 1 if any.
#
# KNOWN lists files that another branch changes, one a line: their lines
# are reported as known; once a known file has none, the test fails until
# it is taken out of KNOWN.
top=$1
KNOWN=''
cd "$top" || exit 1
files=$(find src -name '*.[ch]' | sort)
# shellcheck disable=SC2086 # the file list: names without blanks
awk -v known="$KNOWN" '
  # pass 1, the declarations: a method type object and its name (the first
  # string after "rl_schedule_type rl_sched_X = {"), a scheme name (the first
  # string after ".info = {")
  FNR == 1 { want = "" }
  FILENAME ~ /^src\/core\/schedules\/[^\/]*\.c$/ && match($0, /rl_schedule_type rl_sched_[a-z0-9_]+ = \{/) {
    sym = substr($0, RSTART + 17, RLENGTH - 21); objects[sym] = FILENAME; want = "method"
  }
  FILENAME ~ /^src\/core\/schemes\/[^\/]*\.c$/ && /\.info = \{/ { want = "scheme" }
  want != "" && match($0, /"[^"]*"/) {
    n = "\"" substr($0, RSTART + 1, RLENGTH - 2) "\""
    if (!(n in names)) nn++
    names[n] = names[n] " " FILENAME " "; want = ""  # "rope" is a method and a scheme
  }
  { text[FILENAME, FNR] = $0; if (FNR > len[FILENAME]) len[FILENAME] = FNR }
  !(FILENAME in seen) { seen[FILENAME] = 1; order[++nf] = FILENAME }
  END {
    if (nn < 20) { print "found only " nn " method and scheme names: the declarations moved?"; exit 1 }
    split(known, kl, " "); for (k in kl) isknown[kl[k]] = 1
    bad = 0
    for (i = 1; i <= nf; i++) {
      f = order[i]
      if (f == "src/core/schedules/registry.c" || f == "src/core/schemes/scheme.c") continue
      for (l = 1; l <= len[f]; l++) {
        s = text[f, l]; hit = 0
        if (s ~ /(strn?cmp|memcmp|strcasecmp)[ \t]*\(/)
          for (n in names) if (!index(names[n], " " f " ") && index(s, n)) hit = 1
        if (s ~ /[!=]=[ \t]*rl_(schedule_type|scheme)_find[ \t]*\(/ ||
            s ~ /rl_(schedule_type|scheme)_find[ \t]*\([^)]*\)[ \t]*[!=]=/) hit = 1
        for (o in objects)
          if (objects[o] != f && (s ~ ("[!=]=[ \t]*&" o "([^a-z0-9_]|$)") || s ~ ("&" o "[ \t]*[!=]="))) hit = 1
        if (s ~ /RL_FORM_/) hit = 1
        # the trainer schemes (src/core/train/pos_impl.h): asked through
        # their declaration, not by index; an index only for the default in
        # settings.c
        if (s ~ /RL_TPOS_[A-Z]/) hit = 1
        if (s ~ /RL_TRAIN_POS_IDX_[a-z]/ && f != "src/core/train/pos_impl.h" && f != "src/core/train/settings.c") hit = 1
        if (s ~ /[!=]=[ \t]*rl_train_pos_find[ \t]*\(/ || s ~ /rl_train_pos_find[ \t]*\([^)]*\)[ \t]*[!=]=/) hit = 1
        if (!hit) continue
        if (f in isknown) { print f ":" l ":" s " (known: changed by another branch)"; kh[f] = 1 }
        else { print f ":" l ":" s; bad = 1 }
      }
    }
    for (k in isknown) if (!(k in kh)) { print k " compares no name any more: remove it from KNOWN"; bad = 1 }
    if (!bad) print nn " method and scheme names: none compared outside its own file and the registries"
    exit bad
  }' $files
