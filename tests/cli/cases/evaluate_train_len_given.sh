# evaluate_train_len_given.sh: the schedule at length n is one rule
# (rl_extrap_length_params, issue 34): the original context L of a method
# is the checkpoint's training context, 2 * 4 + 1 = 9 positions for copy at
# --train-len 4 (counted by hand: 4 symbols, the separator, 4 answers),
# unless the user gives --train-len: then the user's value wins (it was
# silently replaced by 9).  The witness is YaRN's correction range, printed
# in the metadata before rounding: dim(r) = d ln(L / (2 pi r)) / (2 ln b)
# for r = beta_fast = 32 (low) and beta_slow = 1 (high) (Peng et al. 2023;
# transformers' _compute_yarn_parameters, find_correction_dim), with the
# head dimension d = 16 / 2 = 8 and b = 10000, computed here by awk;
# rounded: floor(low) and ceil(high) clamped to 0 .. d - 1.  Tolerance
# 1e-12 relative: a few roundings of log and a division (~1e-15) apart.
# L = 9: -1.349 .. 0.156, used 0 .. 1; L = 100: -0.303 .. 1.202, used
# 0 .. 2 (another ramp, so the yarn rows' losses change).  The same rule
# gives train's scoring its L = 9, and --factor given wins as before
# (attention factor 0.1 ln 4 + 1).  The metadata's schedule_train_len is
# the L the schedule was built with: 100 when given (it said 9).
# --train-len 9 given equals the default row for row.
set -e
"$ROPELAB" train --train-len 4 --eval-len 6 --steps 50 --batch 4 --d-model 16 --heads 2 \
  --layers 1 --eval-samples 10 --method yarn --factor 2 --checkpoint y.ck --eval-output t.csv \
  >/dev/null
range() { # the metadata file, L: "ok" when the printed range is the formula's at L
  sed -n 's/^# schedule=yarn: .*correction range \([-0-9.e]*\) \.\. \([-0-9.e]*\) before rounding, \([0-9]*\) \.\. \([0-9]*\) used$/\1 \2 \3 \4/p' "$1" |
    awk -v L="$2" '
      function dim(r) { return 8 * log(L / (2 * atan2(0, -1) * r)) / (2 * log(10000)) }
      function near(a, b) { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; return d <= 1e-12 * m }
      { lo = dim(32); hi = dim(1)
        ulo = int(lo); if (ulo > lo) ulo--; if (ulo < 0) ulo = 0
        uhi = int(hi); if (uhi < hi) uhi++; if (uhi > 7) uhi = 7
        print (near($1, lo) && near($2, hi) && $3 == ulo && $4 == uhi ? "ok" : "WRONG") \
          " L=" L ": used " $3 " .. " $4 }
      END { if (NR != 1) print "no schedule line" }'
}
range t.csv 9 | sed 's/^/train: /'
"$ROPELAB" evaluate y.ck >d.csv
range d.csv 9 | sed 's/^/evaluate default: /'
"$ROPELAB" evaluate y.ck --method yarn --factor 2 --train-len 100 >h.csv
range h.csv 100 | sed 's/^/evaluate --train-len 100: /'
grep -E '^# (schedule_)?train_len=' h.csv
grep '^yarn,' d.csv >a
grep '^yarn,' h.csv >b
cmp -s a b && echo "--train-len 100: the yarn rows of the default (L ignored)" ||
  echo "--train-len 100: other yarn rows than the default's"
"$ROPELAB" evaluate y.ck --method yarn --factor 2 --train-len 9 >n.csv
range n.csv 9 | sed 's/^/evaluate --train-len 9: /'
grep -E '^# (schedule_)?train_len=' n.csv
grep -v '^#' d.csv >a
grep -v '^#' n.csv >b
cmp a b && echo "--train-len 9: the default's rows"
"$ROPELAB" evaluate y.ck --method yarn --factor 4 --no-baseline |
  awk -F= '/^# attention_factor=/ { d = $2 - (0.1 * log(4) + 1); print "attention factor at --factor 4: " (d < 1e-15 && d > -1e-15 ? "0.1 ln 4 + 1" : "WRONG " $2) }'
