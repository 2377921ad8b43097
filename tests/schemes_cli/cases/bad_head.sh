"$ROPELAB" params --scheme alibi --heads 4 --head 4
