# an unreadable factor file is a runtime error (exit 3), as --params
exec "$ROPELAB" freqs --dim 4 --method longrope --factor 4 --train-len 4096 --factors missing.csv
