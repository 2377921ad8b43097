"$ROPELAB" params --scheme t5 --from 0 --to 0 | grep "^# distance="
