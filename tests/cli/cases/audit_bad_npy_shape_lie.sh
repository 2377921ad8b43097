# the header says (64, 32) where the data holds 64 x 64 float32 (python3 for the file)
command -v python3 >/dev/null 2>&1 || exit 77
python3 "$(dirname "$0")/../../audit/tables.py" hf-f32 c.npy s.npy || exit 1
python3 -c "import sys; b = open(\"c.npy\", \"rb\").read(); open(\"t.npy\", \"wb\").write(b.replace(b\"(64, 64)\", b\"(64, 32)\"))"
exec "$ROPELAB" audit t.npy --sin s.npy
