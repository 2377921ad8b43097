"$ROPELAB" params --scheme alibi --heads 8 --no-meta
