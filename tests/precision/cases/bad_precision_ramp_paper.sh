exec "$ROPELAB" angles --precision hf-fp32 --method yarn --factor 4 --train-len 4096 --ramp paper
