# A step whose loss passes --max-loss stops the run (exit 3) with the
# step, the loss and where a non-finite value appeared (none here).  The
# first step's loss is near ln V = ln 12 = 2.4849: with N(0, 0.02^2)
# initial weights and the tied output, a logit has sd about 0.02 sqrt(D)
# = 0.057, so over the few answer tokens of 2 examples the loss lies
# within 0.2 of it (2.3 to 2.7, the pattern below).
"$ROPELAB" train --train-len 2 --steps 4 --batch 2 --d-model 8 --heads 2 --layers 1 \
  --eval-samples 5 --max-loss 0.5 --checkpoint d.ck
