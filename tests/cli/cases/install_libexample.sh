# meson install into a temporary prefix, then a program of one's own built
# with `pkg-config --cflags --libs ropelab` against the installed library
# and header (experiments/libexample).  Expected: RoFormer Fig. 2 passes
# 17.954137 at r = 10 (the paper's curve, experiments/roformer_fig2/README.md); Llama 3's pair 0 keeps
# theta = 1 and pair 63 is RoPE's 500000^(-126/128) divided by 8
# = 3.068926e-07 (Python: '%.6e' % (500000**(-126/128)/8)).
command -v pkg-config >/dev/null 2>&1 && command -v "${CC:-cc}" >/dev/null 2>&1 || exit 77
top=$(cd "$(dirname "$0")/../../.." && pwd)
# A sanitizer build (tests/run.sh's build-san) installs an instrumented
# library: the program must carry the same runtime, as any user's would.
if command -v ldd >/dev/null 2>&1 && ldd "$ROPELAB" 2>/dev/null | grep -q libasan; then
  CC="${CC:-cc} -fsanitize=address,undefined"
  export CC
fi
sh "$top/experiments/libexample/run.sh" "$(dirname "$ROPELAB")/.." 2>err.txt || { cat err.txt >&2; exit 1; }
