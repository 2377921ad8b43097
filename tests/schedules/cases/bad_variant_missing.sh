# llama.cpp has no dynamic NTK
exec "$ROPELAB" freqs --method dynamic --factor 2 --train-len 4096 --variant ggml
