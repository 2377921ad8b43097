"$ROPELAB" profile --scheme alibi,nope --dim 64 --to 4 --samples 2 --no-meta
