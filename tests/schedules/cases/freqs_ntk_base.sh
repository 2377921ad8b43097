# NTK-aware at s = 2, d = 128: base 10000 * 2^(128/126) = 20221.26
# (published in the issue; bloc97's formula), checked against Python's
# pow to 1e-13 relative and to the published two decimals.
command -v python3 >/dev/null 2>&1 || { echo "no python3" >&2; exit 77; }
"$ROPELAB" freqs --method ntk --factor 2 | sed -n 's/^# effective_base=//p' > got
python3 - <<'PY'
b = float(open("got").read())
want = 10000 * 2 ** (128 / 126)
print("rel_ok=%s published=%.2f" % (abs(b - want) <= 1e-13 * want, b))
PY
