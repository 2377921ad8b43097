# vLLM scales dynamic NTK once for s L: a current length would be ignored
exec "$ROPELAB" freqs --method dynamic --factor 2 --train-len 4096 --seq-len 9000 --variant vllm
