# Liu et al. 2023, text after eq. 13: d_extra = 92 for LLaMA 2 (d 128,
# T_train 4096, base 10000); 82 and 100 at 2048 and 8192 by hand:
# 64 log_10000(2048/2pi) = 40.02 -> 2*41 = 82; 64 log_10000(8192/2pi) = 49.85 -> 2*50 = 100.
"$ROPELAB" bound liu --len 2048,4096,8192 --no-meta | cut -d, -f4,7
