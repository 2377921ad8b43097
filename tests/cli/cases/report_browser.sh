# report.html as a reader sees it: Debian's chromium renders it headless
# (installed by tests/run.sh) and the screenshot must show the embedded
# figures: their coloured curves give > 1000 saturated pixels (every
# second pixel of every second row; max - min channel > 80), where the
# same page with its data: URIs broken gives about 100 (measured: 2429
# against 102 for this page), and text (> 5000 dark pixels).  Skips
# without chromium or python3-pil.
command -v chromium >/dev/null 2>&1 || { echo "no chromium" >&2; exit 77; }
/usr/bin/python3 -c 'import PIL' 2>/dev/null || { echo "no python3-pil" >&2; exit 77; }
m=$(dirname "$0")/../../../experiments/models/llama-2-7b.json
"$ROPELAB" report "$m" -o page --samples 2 --bins 4 --quiet || exit 1
shot() {
  rm -f shot.png
  HOME=$PWD timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$PWD/profile" --screenshot="$PWD/shot.png" --window-size=1280,6000 \
    "file://$PWD/$1" >/dev/null 2>&1
  [ -s shot.png ] || { echo "chromium wrote no screenshot" >&2; exit 1; }
  /usr/bin/python3 - <<'PY'
from PIL import Image
im = Image.open('shot.png').convert('RGB')
w, h = im.size
px = im.load()
sat = dark = 0
for y in range(0, h, 2):
    for x in range(0, w, 2):
        r, g, b = px[x, y]
        sat += max(r, g, b) - min(r, g, b) > 80
        dark += max(r, g, b) < 80
print(w, h, 'figures' if sat > 1000 else 'no figures', 'text' if dark > 5000 else 'no text')
PY
}
shot page/report.html
sed 's|base64,[A-Za-z0-9+/=]*|base64,AAAA|g' page/report.html >broken.html
shot broken.html
