# a .npy from the independent generator, cut 4 bytes short (python3 for the file)
command -v python3 >/dev/null 2>&1 || exit 77
python3 "$(dirname "$0")/../../audit/tables.py" hf-f32 c.npy s.npy || exit 1
head -c $(($(wc -c <c.npy) - 4)) c.npy > t.npy
exec "$ROPELAB" audit t.npy --sin s.npy
