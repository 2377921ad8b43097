# bound sweeps: --dim 8,16 gives one table whose rows are the separate
# runs' rows (bound writes dim itself, so no second dim column in front),
# and --base as a list asks each base in turn.
set -e
"$ROPELAB" bound men --dim 8,16 --len 64,128 --no-meta > sweep.csv
for d in 8 16; do
  "$ROPELAB" bound men --dim $d --len 64,128 --no-meta --no-header
done > loop.csv
head -n 1 sweep.csv
tail -n +2 sweep.csv | cmp - loop.csv && echo "rows: as the separate runs"
# Llama 3's and Qwen2's bases at 128K (the independent numbers)
"$ROPELAB" bound men --base 500000,1e6 --len 131072 --dim 128 --no-meta | cut -d, -f1-6
