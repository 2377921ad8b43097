#!/usr/bin/env python3
# svg_layout.py: is a gnuplot SVG figure readable?  Reads the SVG gnuplot's
# svg terminal writes (text as <g transform="translate(x,y) [rotate(a)]"
# font-size=... text-anchor=...><text>, lines as <path d='M.. L..'>,
# filled areas as <polygon>, marks as <use>, one <g id="gnuplot_plot_N">
# per plotted curve whose first <text> is its key entry and whose first
# drawn element after it is the key's sample) and prints one line per
# problem:
#   clipped      a text reaches past the canvas (the title cut at its edges)
#   overlap      two texts overprint each other (a key over a panel's label)
#   struck       a curve, band or mark crosses a key entry or a label
#                inside a panel (the key struck through by curves)
#   straddles    a key entry crosses a panel's frame (half in, half out)
#   unit         an axis label names no unit: it needs one in parentheses
#                at its end, "(tokens)", "(rad)", "(no unit)"
# then "layout ok" or "layout: N problems"; exit 0 or 1.
#
# Text extents are not in the SVG: they come from the advance widths of
# the font the PNG is drawn with (a TrueType file read here with struct:
# cmap format 4 and hmtx; kerning ignored), at the size each text has.
# --scale S draws every text S times its SVG size: gnuplot's pngcairo
# draws an 11 pt font at 96 dpi, 4/3 x 11 px on a canvas of the same
# pixels, at nearly the anchors the svg terminal computes (the scripts fix
# their margins and keys in screen coordinates), so --scale 1.3333 models
# the PNG and 1 the SVG itself.  A text's box spans its advance width
# along the baseline and one em across it, centred where gnuplot centres
# it (0.3 em above the SVG baseline, the svg terminal's offset).  Two
# boxes overprint when they share more than 1 px each way.
# usage: svg_layout.py FIGURE.svg FONT.ttf [--scale S] [--no-units]
import re
import struct
import sys


def font_widths(path):
    """advance width per code point (in em) of a TrueType font"""
    data = open(path, 'rb').read()
    ntab = struct.unpack('>H', data[4:6])[0]
    tab = {}
    for i in range(ntab):
        tag, _, off, length = struct.unpack('>4sIII', data[12 + 16 * i:28 + 16 * i])
        tab[tag.decode('latin-1')] = (off, length)
    upem = struct.unpack('>H', data[tab['head'][0] + 18:tab['head'][0] + 20])[0]
    nhm = struct.unpack('>H', data[tab['hhea'][0] + 34:tab['hhea'][0] + 36])[0]
    hm = tab['hmtx'][0]
    adv = [struct.unpack('>H', data[hm + 4 * i:hm + 4 * i + 2])[0] for i in range(nhm)]
    cm = tab['cmap'][0]
    nsub = struct.unpack('>H', data[cm + 2:cm + 4])[0]
    cmap = {}
    for i in range(nsub):
        pid, eid, off = struct.unpack('>HHI', data[cm + 4 + 8 * i:cm + 12 + 8 * i])
        sub = cm + off
        if struct.unpack('>H', data[sub:sub + 2])[0] != 4 or pid not in (0, 3):
            continue
        segx2 = struct.unpack('>H', data[sub + 6:sub + 8])[0]
        n = segx2 // 2
        ends = struct.unpack('>%dH' % n, data[sub + 14:sub + 14 + segx2])
        starts = struct.unpack('>%dH' % n, data[sub + 16 + segx2:sub + 16 + 2 * segx2])
        deltas = struct.unpack('>%dh' % n, data[sub + 16 + 2 * segx2:sub + 16 + 3 * segx2])
        ro_at = sub + 16 + 3 * segx2
        ros = struct.unpack('>%dH' % n, data[ro_at:ro_at + segx2])
        for k in range(n):
            for c in range(starts[k], ends[k] + 1):
                if c == 0xffff:
                    continue
                if ros[k] == 0:
                    g = (c + deltas[k]) & 0xffff
                else:
                    a = ro_at + 2 * k + ros[k] + 2 * (c - starts[k])
                    g = struct.unpack('>H', data[a:a + 2])[0]
                    g = (g + deltas[k]) & 0xffff if g else 0
                cmap.setdefault(c, g)
    return {c: adv[min(g, nhm - 1)] / upem for c, g in cmap.items()}, adv[0] / upem


def unescape(s):
    s = re.sub(r'<[^>]*>', '', s)  # tspans
    s = re.sub(r'&#x([0-9a-fA-F]+);', lambda m: chr(int(m.group(1), 16)), s)
    s = re.sub(r'&#([0-9]+);', lambda m: chr(int(m.group(1))), s)
    return s.replace('&lt;', '<').replace('&gt;', '>').replace('&quot;', '"').replace('&apos;', "'").replace('&amp;', '&')


def path_segments(d):
    """the straight segments of an SVG path (M, L, H, V, Z and relatives);
    each subpath (from an M) separately: a list of lists of segments"""
    toks = re.findall(r'[MmLlHhVvZz]|-?[0-9.]+(?:e-?[0-9]+)?', d)
    subs, cur = [], []
    x = y = x0 = y0 = 0.0
    cmd = None
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.isalpha():
            cmd = t
            i += 1
            if cmd in 'Zz':
                if (x, y) != (x0, y0):
                    cur.append((x, y, x0, y0))
                x, y = x0, y0
            continue
        if cmd in 'Mm':
            nx, ny = float(toks[i]), float(toks[i + 1])
            i += 2
            if cmd == 'm':
                nx, ny = x + nx, y + ny
            if cur:
                subs.append(cur)
            cur = []
            x, y, x0, y0 = nx, ny, nx, ny
            cmd = 'L' if cmd == 'M' else 'l'  # further pairs are lines
            continue
        if cmd in 'Ll':
            nx, ny = float(toks[i]), float(toks[i + 1])
            i += 2
            if cmd == 'l':
                nx, ny = x + nx, y + ny
        elif cmd in 'Hh':
            nx, ny = float(toks[i]) + (x if cmd == 'h' else 0), y
            i += 1
        elif cmd in 'Vv':
            nx, ny = x, float(toks[i]) + (y if cmd == 'v' else 0)
            i += 1
        else:
            i += 1
            continue
        cur.append((x, y, nx, ny))
        x, y = nx, ny
    if cur:
        subs.append(cur)
    return subs


def seg_hits_box(s, b):
    """does segment s = (x1, y1, x2, y2) pass through the inside of box b?"""
    x1, y1, x2, y2 = s
    l, t, r, bt = b
    # Liang-Barsky clipping against the open box
    dx, dy = x2 - x1, y2 - y1
    u0, u1 = 0.0, 1.0
    for p, q in ((-dx, x1 - l), (dx, r - x1), (-dy, y1 - t), (dy, bt - y1)):
        if p == 0:
            if q <= 0:
                return False
        else:
            u = q / p
            if p < 0:
                u0 = max(u0, u)
            else:
                u1 = min(u1, u)
            if u0 >= u1:
                return False
    return True


def inter(a, b, slack=1.0):
    return (min(a[2], b[2]) - max(a[0], b[0]) > slack and
            min(a[3], b[3]) - max(a[1], b[1]) > slack)


def shrink(b, by=1.0):
    return (b[0] + by, b[1] + by, b[2] - by, b[3] - by)


def inside_poly(p, pts):
    # even-odd rule: a ray from p to the right crosses the outline
    x, y = p
    n = len(pts)
    c = False
    for i in range(n):
        (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            c = not c
    return c


def main(argv):
    if len(argv) < 3:
        print('usage: svg_layout.py FIGURE.svg FONT.ttf [--scale S] [--no-units]', file=sys.stderr)
        return 2
    svg = open(argv[1], encoding='utf-8').read()
    widths, missing = font_widths(argv[2])
    scale = float(argv[argv.index('--scale') + 1]) if '--scale' in argv else 1.0
    units = '--no-units' not in argv
    vb = re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
    W, H = float(vb.group(1)), float(vb.group(2))

    texts = []   # (box, string, in_key, rot, anchor, x, y, size, group)
    lines = []   # (segment, group, is_sample)
    areas = []   # (box of a polygon or mark, group, is_sample, kind)
    frames = []  # panel frames: (l, t, r, b)
    keyboxes = []  # the boxes of keys drawn with a box
    loose = []  # segments drawn outside the plots' groups (arrows, ticks)
    polys = {}   # a band's polygon by where it starts: its outline
    # crossing a box is a line crossing it; a box its outline misses is
    # struck only when inside it (a band's bounding box is not the band:
    # one across a log axis covers the whole frame)
    opaque = []  # white areas (an opaque key's box) and where they come
    group = None
    sample_of = None  # the key entry whose sample comes next
    sample_box = None  # the sample line drawn, for a mark on it
    pos = 0
    tok = re.compile(r'<g id="gnuplot_plot_([^"]*)"[^>]*>|'
                     r'<g transform="translate\(([-0-9.]+),([-0-9.]+)\)( rotate\(([-0-9.]+)\))?"([^>]*)>\s*<text[^>]*>(.*?)</text>|'
                     r"<path ([^>]*)d='([^']*)'|"
                     r"<polygon ([^>]*)points = '([^']*)'|"
                     r"<use xlink:href='#gpPt[0-9]+' transform='translate\(([-0-9.]+),([-0-9.]+)\) scale\(([-0-9.]+)\)'|"
                     r'<image ([^>]*)>|'
                     r'(<g\b[^>]*>)|(</g>)', re.S)
    depth = 0  # <g> elements open inside the current plot's group
    ngroups = 0
    for m in tok.finditer(svg):
        if m.group(1) is not None:
            # (a script that plots twice in one place repeats the ids)
            ngroups += 1
            group = '%s#%d' % (m.group(1), ngroups)
            sample_of = None
            sample_box = None
            depth = 0
            continue
        if m.group(16) is not None:
            depth += 1
            continue
        if m.group(17) is not None:
            depth -= 1
            if depth < 0:
                group, depth = None, 0  # the plot's group closes
            continue
        if m.group(2) is not None:
            depth += 1  # its </g> follows the text
            x, y = float(m.group(2)), float(m.group(3))
            rot = float(m.group(5)) if m.group(5) else 0.0
            attrs = m.group(6)
            fs = re.search(r'font-size="([0-9.]+)"', attrs)
            size = float(fs.group(1)) if fs else 12.0
            anchor = re.search(r'text-anchor="([a-z]+)"', attrs)
            anchor = anchor.group(1) if anchor else 'start'
            s = unescape(m.group(7))
            if not s.strip():
                continue
            em = size * scale
            wpx = sum(widths.get(ord(c), missing) for c in s) * em
            a0 = {'start': 0.0, 'middle': -0.5, 'end': -1.0}[anchor] * wpx
            # along the text: [a0, a0 + w]; across it, centred 0.3 em
            # (svg size) above the baseline, one em (drawn size) tall
            c = -0.3 * size
            lo, hi = c - 0.5 * em, c + 0.5 * em
            r = int(round(rot)) % 360
            if r == 0:
                box = (x + a0, y + lo, x + a0 + wpx, y + hi)
            elif r == 270:  # reads upwards; glyphs' up is -x
                box = (x + lo, y - a0 - wpx, x + hi, y - a0)
            elif r == 90:   # reads downwards; glyphs' up is +x
                box = (x - hi, y + a0, x - lo, y + a0 + wpx)
            else:
                continue
            key = group is not None and sample_of is None and not any(t[8] == group and t[2] for t in texts)
            texts.append((box, s, key, r, anchor, x, y, size, group))
            if key:
                sample_of = len(texts) - 1
            continue
        if m.group(8) is not None:
            attrs, d = m.group(8), m.group(9)
            if 'gridline' in attrs:
                continue
            subs = path_segments(d)
            if group is None:
                # a panel's frame: a closed axis-parallel rectangle, which
                # gnuplot starts at its top left going down; a key's box
                # starts at its bottom left going up, a colour box across
                for sp in subs:
                    if len(sp) == 4 and all(s[0] == s[2] or s[1] == s[3] for s in sp):
                        xs = [s[0] for s in sp] + [s[2] for s in sp]
                        ys = [s[1] for s in sp] + [s[3] for s in sp]
                        r = (min(xs), min(ys), max(xs), max(ys))
                        if sp[0][0] == sp[0][2] and sp[0][3] > sp[0][1]:
                            if r[2] - r[0] > 20 and r[3] - r[1] > 20:
                                frames.append(r)
                        elif sp[0][0] == sp[0][2] and sp[0][3] < sp[0][1]:
                            keyboxes.append(r)
                    else:
                        loose.extend(sg + (m.start(),) for sg in sp)  # an arrow, a tick, a label's line
                continue
            for k, sp in enumerate(subs):
                is_sample = sample_of is not None and sample_of >= 0 and k == 0
                for s in sp:
                    lines.append((s, group, is_sample, m.start()))
                if is_sample:
                    sample_of = -1  # the sample is taken
                    # a linespoints sample: its mark follows, on the line
                    sample_box = (min(min(s[0], s[2]) for s in sp), min(min(s[1], s[3]) for s in sp),
                                  max(max(s[0], s[2]) for s in sp), max(max(s[1], s[3]) for s in sp))
            continue
        if m.group(10) is not None:
            nums = [float(v) for v in re.findall(r'-?[0-9.]+', m.group(11))]
            xs, ys = nums[0::2], nums[1::2]
            if not xs:
                continue
            box = (min(xs), min(ys), max(xs), max(ys))
            if re.search(r"fill = 'white'", m.group(10)):
                opaque.append((box, m.start()))  # an opaque key's background
                continue
            is_sample = group is not None and sample_of is not None and sample_of >= 0
            if group is not None:
                pts = list(zip(xs, ys))
                areas.append((box, group, is_sample, 'band', m.start()))
                polys[m.start()] = pts
                # the polygon's outline, for boxes it crosses
                for i in range(len(pts)):
                    lines.append((pts[i] + pts[(i + 1) % len(pts)], group, is_sample, m.start()))
            if is_sample:
                sample_of = -1
            continue
        if m.group(12) is not None:
            x, y, sc = float(m.group(12)), float(m.group(13)), float(m.group(14))
            box = (x - sc, y - sc, x + sc, y + sc)
            is_sample = group is not None and sample_of is not None and sample_of >= 0
            if (group is not None and sample_of == -1 and sample_box is not None and
                    sample_box[0] - 0.5 <= x <= sample_box[2] + 0.5 and sample_box[1] - 0.5 <= y <= sample_box[3] + 0.5):
                is_sample = True  # the mark of a linespoints sample
            sample_box = sample_box if sample_of == -1 else None
            if group is not None:
                areas.append((box, group, is_sample, 'mark', m.start()))
            if is_sample:
                sample_of = -1
            continue
        if m.group(15) is not None:
            a = m.group(15)
            g = {k: float(v) for k, v in re.findall(r'\b(x|y|width|height)=[\'"]([-0-9.]+)', a)}
            if 'width' in g:
                areas.append(((g.get('x', 0), g.get('y', 0), g.get('x', 0) + g['width'],
                               g.get('y', 0) + g['height']), group or 'image', False, 'image', m.start()))
            continue

    # a line drawn across a panel (set arrow: the training length's dashed
    # line) crosses keys like a curve; ticks (short, on a frame) do not
    for sg in loose:
        if (sg[0] - sg[2]) ** 2 + (sg[1] - sg[3]) ** 2 < 15 ** 2:
            continue
        mx, my = (sg[0] + sg[2]) / 2, (sg[1] + sg[3]) / 2
        if any(f[0] < mx < f[2] and f[1] < my < f[3] for f in frames):
            lines.append((sg[:4], 'arrow', False, sg[4]))
    problems = []
    # the key entries' boxes: text and sample together
    entry = {}
    for i, t in enumerate(texts):
        if t[2]:
            entry[i] = list(t[0])
    for s, g, smp, _ in lines:
        if smp:
            for i, t in enumerate(texts):
                if t[2] and t[8] == g:
                    b = entry[i]
                    entry[i] = [min(b[0], s[0], s[2]), min(b[1], s[1], s[3]),
                                max(b[2], s[0], s[2]), max(b[3], s[1], s[3])]
    # (a mark sample is left out: gnuplot draws a large mark past its row)
    for box, g, smp, kind, _ in areas:
        if smp and kind != 'mark':
            for i, t in enumerate(texts):
                if t[2] and t[8] == g:
                    b = entry[i]
                    entry[i] = [min(b[0], box[0]), min(b[1], box[1]), max(b[2], box[2]), max(b[3], box[3])]

    def name(i):
        t = texts[i]
        return ('key "%s"' if t[2] else '"%s"') % (t[1] if len(t[1]) <= 60 else t[1][:57] + '...')

    def plot_name(g):
        return g.split('#')[0] if isinstance(g, str) else g

    # 1. every text inside the canvas
    for i, t in enumerate(texts):
        b = t[0]
        if b[0] < -0.5 or b[1] < -0.5 or b[2] > W + 0.5 or b[3] > H + 0.5:
            problems.append('clipped: %s reaches %s of the %gx%g canvas (box %.0f,%.0f..%.0f,%.0f)' % (
                name(i), 'left' if b[0] < 0 else 'right' if b[2] > W else 'top' if b[1] < 0 else 'bottom',
                W, H, b[0], b[1], b[2], b[3]))
    # 2. no two texts overprint (a key entry with its sample)
    def tbox(i):
        return tuple(entry[i]) if i in entry else texts[i][0]
    def number(t):
        return re.match(r'^\s*[-+−]?[0-9.]+([eE][-+]?[0-9]+)?[a-zA-Z%]?\s*$', t[1]) is not None
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            if texts[i][1] == texts[j][1] and texts[i][0] == texts[j][0]:
                continue
            # at another text size than the SVG's, the tick labels'
            # places (set by gnuplot's margins for the SVG's characters)
            # say nothing of the PNG's
            if scale != 1 and (number(texts[i]) or number(texts[j])):
                continue
            if inter(tbox(i), tbox(j)):
                problems.append('overlap: %s and %s' % (name(i), name(j)))
    # 3. key entries and labels inside a frame: no curve, band or mark
    # crosses them (their own sample aside)
    def inside_frame(b):
        return any(f[0] <= b[0] and b[2] <= f[2] and f[1] <= b[1] and b[3] <= f[3] for f in frames)
    for i, t in enumerate(texts):
        if t[2]:
            b = tuple(entry[i])
        elif t[8] is None and inside_frame(t[0]) and t[3] == 0:
            b = t[0]
        else:
            continue
        bb = shrink(b)
        hit = None

        def hidden(at):  # under an opaque box drawn later over the entry
            return any(o[1] > at and o[0][0] <= bb[0] and o[0][1] <= bb[1] and bb[2] <= o[0][2] and bb[3] <= o[0][3]
                       for o in opaque)
        for s, g, smp, at in lines:
            if smp or hidden(at):
                continue  # a key's sample: its own entry's, or 'overlap'
            if seg_hits_box(s, bb):
                hit = g
                break
        if hit is None:
            for box, g, smp, kind, at in areas:
                if smp or hidden(at):
                    continue
                if inter(box, bb, 0.0) and (at not in polys or inside_poly(
                        ((bb[0] + bb[2]) / 2, (bb[1] + bb[3]) / 2), polys[at])):
                    hit = '%s of %s' % (kind, g)
                    break
        if hit is not None:
            problems.append('struck: %s is crossed by plot %s' % (name(i), plot_name(hit) if not hit.startswith(('band', 'mark', 'image')) else hit.split('#')[0]))
    # 4. key entries inside a frame or outside it, not across its edge
    for i in entry:
        b = shrink(tuple(entry[i]))
        for f in frames:
            edges = ((f[0], f[1], f[2], f[1]), (f[2], f[1], f[2], f[3]), (f[0], f[3], f[2], f[3]), (f[0], f[1], f[0], f[3]))
            if any(seg_hits_box(e, b) for e in edges):
                problems.append('straddles: %s crosses the frame %.0f,%.0f..%.0f,%.0f' % (name(i), *f))
                break
    for kb in keyboxes:
        b = shrink(kb)
        for f in frames:
            edges = ((f[0], f[1], f[2], f[1]), (f[2], f[1], f[2], f[3]), (f[0], f[3], f[2], f[3]), (f[0], f[1], f[0], f[3]))
            if any(seg_hits_box(e, b) for e in edges):
                problems.append('straddles: a key box %.0f,%.0f..%.0f,%.0f crosses the frame %.0f,%.0f..%.0f,%.0f' % (*kb, *f))
                break
    # 5. axis labels name a unit: a text beside a frame, centred on it,
    # outside the tick labels (rotated: y or y2 label; level: x label);
    # every row of panels has a y label, every column an x label
    if units:
        ylab, xlab = set(), set()
        for i, t in enumerate(texts):
            if t[2] or t[8] is not None or t[4] != 'middle':
                continue
            b = t[0]
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            # a tick label (a number) is not an axis label
            if re.match(r'^\s*[-+−]?[0-9.]+([eE][-+]?[0-9]+)?[a-zA-Z%]?\s*$', t[1]):
                continue
            # a panel's title: centred on a frame just below it
            if t[3] == 0 and any(abs(cx - (g[0] + g[2]) / 2) < 3 and 0 <= g[1] - b[3] < 45 for g in frames):
                continue
            for f in frames:
                fx, fy = (f[0] + f[2]) / 2, (f[1] + f[3]) / 2
                if t[3] in (90, 270):
                    axis = abs(cy - fy) < 3 and (b[2] <= f[0] or b[0] >= f[2]) and min(abs(b[2] - f[0]), abs(b[0] - f[2])) < 120
                else:
                    axis = abs(cx - fx) < 3 and b[1] >= f[3] and b[1] - f[3] < 60
                if axis:
                    (ylab if t[3] in (90, 270) else xlab).add(f)
                    if not re.search(r'\([^()]*[A-Za-z0-9][^()]*\)\s*$', t[1]):
                        problems.append('unit: axis label %s names no unit (expected one in parentheses)' % name(i))
                    break
        rows = sorted({(round(f[1]), round(f[3])) for f in frames})
        for r in rows:
            if not any((round(f[1]), round(f[3])) == r for f in ylab):
                problems.append('unit: the panels at y %d..%d have no y axis label' % r)
        cols = sorted({(round(f[0]), round(f[2])) for f in frames})
        for c in cols:
            if not any((round(f[0]), round(f[2])) == c for f in xlab):
                problems.append('unit: the panels at x %d..%d have no x axis label' % c)
    for p in problems:
        print(p)
    print('layout ok' if not problems else 'layout: %d problems' % len(problems))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
