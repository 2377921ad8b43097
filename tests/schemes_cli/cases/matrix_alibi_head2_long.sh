"$ROPELAB" matrix --scheme alibi --head 2 --len 3 --term bias --no-meta
