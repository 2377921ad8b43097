# A trained scheme of the test build only (integer.c: recipe 1 layer, 5
# steps, lr 0.002, min-lr lr/10; no schedule option), used through the
# CLI built without a line for it.  Expected by hand from the
# declaration: the help's recipe line; the run's metadata (scheme, the
# recipe's layers, steps, lr and min-lr 0.002/10 = 0.0002); one table row
# per test length 1..2L = 40 with method '-' (a scheme with no rope
# schedule); the checkpoint stores the name and evaluate reads it back;
# --base refused (sched none); the real binary knows no such scheme.
"$ROPELAB" train --help | grep -E '^  integer '
"$ROPELAB" train --scheme integer --eval-samples 2 --peak-seconds 0 --checkpoint i.ckpt \
  > t.csv || echo "rc $?"
grep -E '^# (scheme|layers|steps|lr|min_lr)=' t.csv
grep -v '^#' t.csv | sed 1d | cut -d, -f1 | sort | uniq -c | sed 's/^ *//'
grep -v '^#' t.csv | sed 1d | cut -d, -f2 | sed -n '1p;$p'
"$ROPELAB" evaluate i.ckpt --eval-samples 2 | grep -E '^# scheme='
"$ROPELAB" train --scheme integer --base 500 --steps 1 2>&1 >/dev/null; echo "rc $?"
"$ROPELAB_REAL" train --scheme integer --steps 1 2>&1 >/dev/null | sed 's/expected .*/expected .../'
"$ROPELAB_REAL" evaluate i.ckpt 2>&1 >/dev/null; echo "rc $?"
