"$ROPELAB" profile --scheme alibi,nope --to 4 --samples 2 --no-meta
