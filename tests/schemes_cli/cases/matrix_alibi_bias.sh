"$ROPELAB" matrix --scheme alibi --len 4 --term bias --format grid --no-meta
