#!/usr/bin/python3
# ckpt_read.py: an independent reader of ropelab's checkpoint format
# (src/core/train/checkpoint.md), written from the documentation alone (struct and
# zlib, no ropelab code), for the golden CLI cases.
#   ckpt_read.py show FILE          sections: sizes, or a text's keys
#   ckpt_read.py same A B TAG...    exit 0 when the sections TAG of A and B
#                                   hold the same bytes (1, naming the first
#                                   that differs)
#   ckpt_read.py get FILE TAG KEY   a value: a text section's key=value, or
#                                   STAT's step / rng / params, or CONF's key
#   ckpt_read.py set FILE OUT TAG KEY VALUE
#                                   FILE with CONF's KEY (an integer, or a
#                                   real for an f64 key; 'nan' allowed) or
#                                   entry KEY of PARM, MOM1, MOM2 ('all': every
#                                   one; 'A:B': entries A..B-1) set to VALUE,
#                                   the CRC made right, to OUT
# Exit 1 with a message on a file that breaks the documented format.
import struct
import sys
import zlib

MAGIC = b"\x89RLCKPT\n"
ORDER = ["NAME", "CONF", "ROPE", "EVAL", "PROV", "STAT", "PARM", "MOM1", "MOM2"]
CONF = ["vocab", "d_model", "heads", "layers", "batch", "max_T", "num_buckets",
        "max_distance", "f64 base", "seed", "symbols", "f64 beta1", "f64 beta2", "f64 eps",
        "f64 weight_decay", "f64 clip", "steps", "warmup", "train_len", "eval_len",
        "eval_samples", "log_every", "checkpoint_every", "threads", "f64 lr", "f64 min_lr", "chunks"]


def die(msg):
    print("ckpt_read: " + msg)
    sys.exit(1)


def read(path):
    b = open(path, "rb").read()
    if len(b) < 28 or b[:8] != MAGIC:
        die("bad magic")
    ver, mark, length = struct.unpack_from("<IIQ", b, 8)
    if ver not in (2, 3) or mark != 0x0A0B0C0D or length != len(b):
        die("bad version %d, marker %#x or length %d of %d" % (ver, mark, length, len(b)))
    crc, = struct.unpack_from("<I", b, len(b) - 4)
    if crc != zlib.crc32(b[:-4]):
        die("crc mismatch")
    at, secs = 24, {}
    for tag in ORDER:
        t, zero, n = struct.unpack_from("<4sIQ", b, at)
        if t.decode() != tag or zero != 0 or at + 16 + n > len(b) - 4:
            die("section %s at %d" % (tag, at))
        secs[tag] = b[at + 16:at + 16 + n]
        at += 16 + n
    if at != len(b) - 4:
        die("bytes after the sections")
    np_, = struct.unpack_from("<Q", secs["STAT"], 16)
    for t in ("PARM", "MOM1", "MOM2"):
        if len(secs[t]) != 8 * np_:
            die("%s size" % t)
    return b, secs


def value(secs, tag, key):
    if tag == "STAT":
        i = ["step", "rng", "params"].index(key)
        return str(struct.unpack_from("<Q", secs["STAT"], 8 * i)[0])
    if tag == "CONF":
        for i, k in enumerate(CONF):
            if k.split()[-1] == key:
                fmt = "<d" if k.startswith("f64") else "<Q"
                return repr(struct.unpack_from(fmt, secs["CONF"], 8 * i)[0])
        die("no CONF key " + key)
    for line in secs[tag].decode().splitlines():
        if line.startswith(key + "="):
            return line[len(key) + 1:]
    die("no %s in %s" % (key, tag))


def main(argv):
    if argv[1] == "show":
        b, secs = read(argv[2])
        print("length and crc ok")
        for t in ORDER:
            if t in ("NAME", "ROPE", "EVAL", "PROV"):
                # texts: their keys (PROV's values name the machine and date)
                print("%s %s" % (t, ",".join(l.split("=")[0] for l in secs[t].decode().splitlines())))
            else:
                print("%s %d bytes" % (t, len(secs[t])))
    elif argv[1] == "same":
        _, a = read(argv[2])
        _, b = read(argv[3])
        for t in argv[4:]:
            if a[t] != b[t]:
                print("differ: " + t)
                return 1
    elif argv[1] == "set":
        b, secs = read(argv[2])
        b = bytearray(b)
        tag, key, val = argv[4], argv[5], argv[6]
        at = 24
        for t in ORDER:
            n, = struct.unpack_from("<Q", b, at + 8)
            if t == tag:
                break
            at += 16 + n
        at += 16
        if tag == "CONF":
            i = [k.split()[-1] for k in CONF].index(key)
            if CONF[i].startswith("f64"):
                struct.pack_into("<d", b, at + 8 * i, float(val))
            else:
                struct.pack_into("<Q", b, at + 8 * i, int(val) % 2**64)
        else:
            count = n // 8
            if key == "all":
                which = range(count)
            elif ":" in key:  # A:B, entries A..B-1
                which = range(int(key.split(":")[0]), int(key.split(":")[1]))
            else:
                which = [int(key)]
            for i in which:
                struct.pack_into("<d", b, at + 8 * i, float(val))
        struct.pack_into("<I", b, len(b) - 4, zlib.crc32(bytes(b[:-4])))
        open(argv[3], "wb").write(bytes(b))
    elif argv[1] == "get":
        _, secs = read(argv[2])
        print(value(secs, argv[3], argv[4]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
