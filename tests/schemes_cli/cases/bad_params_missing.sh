"$ROPELAB" params --scheme t5 --params /nonexistent/t5_bias.csv
