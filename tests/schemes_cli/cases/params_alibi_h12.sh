"$ROPELAB" params --scheme alibi --heads 12 --no-meta
