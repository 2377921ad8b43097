"$ROPELAB" matrix --scheme learned --len 514 --past clamp --format grid --no-meta >/dev/null; echo $?
