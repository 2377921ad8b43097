"$ROPELAB" compare --scheme rope,sinusoidal,alibi,t5 --len 32 --no-meta | awk -F, 'NR > 1 { print $1, $5, $7, $8, $12 }'
