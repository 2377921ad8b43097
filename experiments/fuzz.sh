#!/bin/sh
# fuzz.sh [SECONDS [TARGET...]]: fuzz every file reader of the core with
# libFuzzer (clang -fsanitize=fuzzer) under AddressSanitizer (with
# LeakSanitizer) and UndefinedBehaviorSanitizer, each target for SECONDS
# (default 60, or $FUZZ_SECONDS), and exit 1 if any found a crash, a leak,
# undefined behaviour, a hang (> 10 s) or a broken promise of the reader.
#
# Targets (tests/fuzz/fuzz_TARGET.c, seed corpus tests/fuzz/corpus/TARGET):
#   csv         the strict CSV reader (src/core/io/csv.c)
#   freqs_file  the frequency-file schedule (--freqs-file)
#   longrope    LongRoPE's factor file (--factors)
#   array       the .npy and CSV array reader of audit and check --table
#               (src/core/io/array.c, npy.c)
#   params      the scheme parameter files (--params: t5, alibi, learned,
#               deberta, tupe; the first byte of an input picks the scheme)
#   gguf        the GGUF header reader (src/core/model/gguf.c; seed corpus
#               written by tests/model/test_gguf --write-corpus)
#   config_json a model's config.json (--config; src/core/model/json.c)
#   checkpoint  the trainer's checkpoint (src/core/train/checkpoint.c; the
#               first byte of an input asks for a correct length and CRC,
#               to get past the checksum, or for field-aware mutations of a
#               valid checkpoint of each scheme: every CONF field at its
#               bounds, 0, -1, 2^31, 2^40, NaN; tensors at +-1e300, inf,
#               NaN (tests/train/ckpt_mutate.h); seed corpus: two tiny
#               runs' checkpoints and field-aware seeds)
#
# Installs what it needs (clang and its libFuzzer runtime, Debian
# libclang-rt-N-dev, with the packages of experiments/setup.sh).  Writes
# under out/fuzz/: the binaries, the grown corpus of each target (the seed
# corpus in the repo is never modified) and crash-* / leak-* / timeout-*
# reproducers; rerun one with out/fuzz/fuzz_TARGET FILE.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-${FUZZ_SECONDS:-60}}
[ $# -gt 0 ] && shift
targets=${*:-csv freqs_file longrope params array gguf config_json checkpoint}
case $secs in *[!0-9]* | '') echo "fuzz.sh: SECONDS must be a whole number, not '$secs'" >&2; exit 2 ;; esac

# clang first (it names the runtime package), then the runtime itself
ROPELAB_EXTRA_NEED="clang:clang" sh "$top/experiments/setup.sh" build >/dev/null
major=$(clang -dumpversion | cut -d. -f1)
rt=$(clang --print-runtime-dir)/libclang_rt.fuzzer-x86_64.a
ROPELAB_EXTRA_NEED="libclang-rt-$major-dev:$rt" sh "$top/experiments/setup.sh" build >/dev/null

out=$top/out/fuzz
mkdir -p "$out/obj"
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
# glibc defines CMPLX only for GCC >= 4.7, which clang does not claim to be
cflags="-std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -fno-math-errno -I$top/src $(pkg-config --cflags gsl jansson)
  -DCMPLX(x,y)=__builtin_complex((double)(x),(double)(y))"
libs="$(pkg-config --libs gsl jansson) -lm -lpthread"

# the core once, instrumented for coverage (fuzzer-no-link) and sanitized
echo "fuzz: building the core with clang $major" >&2
objs=
for src in "$top"/src/core/*/*.c; do
  # SLEEF's AVX2 wrapper needs -mavx2 and libsleef; without RL_HAVE_SLEEF
  # nothing calls it (src/core/precision/meson.build builds it apart)
  case $src in */precision/sleef.c) continue ;; esac
  o=$out/obj/$(echo "${src#"$top"/src/core/}" | tr / _ | sed 's/\.c$/.o/')
  # shellcheck disable=SC2086
  clang $cflags $san -fsanitize=fuzzer-no-link -c "$src" -o "$o"
  objs="$objs $o"
done

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
for t in $targets; do
  src=$top/tests/fuzz/fuzz_$t.c
  [ -f "$src" ] || { echo "fuzz.sh: no target '$t' ($src)" >&2; exit 2; }
  # shellcheck disable=SC2086
  clang $cflags $san -fsanitize=fuzzer -I"$top/tests/fuzz" -I"$top/tests/train" "$src" $objs $libs \
    -o "$out/fuzz_$t"
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
  echo "fuzz: $t for ${secs} s" >&2
  if ! "$out/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$out/artifacts/$t/" "$out/corpus/$t" "$top/tests/fuzz/corpus/$t" \
       >"$out/$t.log" 2>&1; then
    echo "fuzz: $t FAILED: see $out/$t.log and $out/artifacts/$t/" >&2
    status=1
  fi
  # one summary line: executions, coverage, corpus size
  runs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$out/$t.log")
  cov=$(grep -o 'cov: [0-9]*' "$out/$t.log" | tail -n 1)
  echo "fuzz: $t: ${runs:-?} inputs, ${cov:-cov: ?}, corpus $(ls "$out/corpus/$t" | wc -l) files" >&2
done
exit $status
