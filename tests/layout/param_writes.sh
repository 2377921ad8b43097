#!/bin/sh
# param_writes.sh TOP: a schedule parameter is written through its
# declaration (rl_schedule_set, _set_text, _set_list, _unset, or the option
# parser), which records it as given, so that no code outside
# src/core/schedules sets the given bits by hand (p->set |= RL_SP_...) or
# writes a method's own slot (p->own[k].x = ...).  Prints each offender as
# FILE:LINE: TEXT; exit 1 if any.  KNOWN: files another branch changes,
# reported as known (the test fails once one has none, to take it out).
top=$1
KNOWN=''
cd "$top" || exit 1
hits=$(find src -name '*.[ch]' ! -path 'src/core/schedules/*' | sort | xargs grep -n -E \
  '(\.|->)set[[:space:]]*(\|=|&=|=)[^=;]*RL_SP_|(\.|->)own[[:space:]]*\[[^]]*\]\.(x|i|s|v|z)[^=;]*=[^=]')
bad=0
for k in $KNOWN; do
  printf '%s\n' "$hits" | grep -q "^$k:" ||
    { echo "$k writes no parameter by hand any more: remove it from KNOWN in $0"; bad=1; }
done
printf '%s\n' "$hits" | while IFS= read -r line; do
  [ -z "$line" ] && continue
  case " $KNOWN " in *" ${line%%:*} "*) echo "$line (known: changed by another branch)" ;; *) echo "$line" ;; esac
done
printf '%s\n' "$hits" | grep -v -e '^$' $(for k in $KNOWN; do printf ' -e ^%s:' "$k"; done) >/dev/null && bad=1
[ $bad = 0 ] && echo "no schedule parameter written by hand outside src/core/schedules"
exit $bad
