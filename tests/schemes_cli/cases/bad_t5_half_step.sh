"$ROPELAB" profile --scheme t5 --step 0.5 --to 2
