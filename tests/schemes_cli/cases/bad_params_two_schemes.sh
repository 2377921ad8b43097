"$ROPELAB" profile --scheme t5,alibi --params x.csv
