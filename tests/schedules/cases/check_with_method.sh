# The RoPE properties hold on a scaled schedule too (exit 0, all pass).
"$ROPELAB" check --method yarn --factor 8 --train-len 4096 --only relative_position,norm_preservation,composition,layout_equivalence --trials 200 | tail -n 1
