# partial rotary: --rot 4 of --dim 8 uses the exponent 2i/rot, so the
# schedule equals that of --dim 4 (Hugging Face partial_rotary_factor).
exec "$ROPELAB" freqs --dim 8 --rot 4 --base 100 --no-meta --no-header
