# --only NAME --tap: a plan and one ok line; --list names it.
"$ROPELAB" check --only relative_position,norm_preservation --trials 50 --tap | sed 's/ #.*//'
"$ROPELAB" check --list | grep -c '^relative_position '
