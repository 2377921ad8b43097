#!/bin/sh
# gen_ggml.sh GGML_SRC WORK OUT_DIR: build ggml from source twice and write
# the ggml reference tables (gen_refs.py ggml).  Not run by the test suite.
#   release (FMA): cmake -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF
#     (ggml's default for a portable build: SSE4.2, AVX, AVX2, FMA, F16C,
#     BMI2 on; ggml-cpu compiled with -mfma, GCC contracts a*b + c)
#   strict (no FMA): the same plus -DGGML_FMA=OFF -DGGML_AVX2=OFF
# The driver is compiled with the same -O3 and -mfma (or not) as ggml-cpu.
# Tables of 2026-11-25: ggml-org/ggml d99724f2b141fed9e1a9f402213506c081433465,
# GCC 12.2.0, CMake 3.25 (Debian 12).
set -eu
src=$1 work=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
common="-DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF -DGGML_BUILD_TESTS=OFF -DGGML_BUILD_EXAMPLES=OFF"
# shellcheck disable=SC2086
cmake -S "$src" -B "$work/b-fma" $common >&2
# shellcheck disable=SC2086
cmake -S "$src" -B "$work/b-strict" $common -DGGML_FMA=OFF -DGGML_AVX2=OFF >&2
for v in fma strict; do
  cmake --build "$work/b-$v" -j2 --target ggml-cpu ggml-base ggml >&2
  case $v in fma) flags="-mavx2 -mfma -mf16c" ;; *) flags="-mavx -mf16c" ;; esac
  # shellcheck disable=SC2086
  gcc -O3 $flags -I"$src/include" "$here/ggml_rope_dump.c" -o "$work/dump-$v" \
    "$work/b-$v/src/libggml.a" "$work/b-$v/src/libggml-cpu.a" "$work/b-$v/src/libggml-base.a" \
    -lstdc++ -lm -lpthread -fopenmp
done
python3 "$here/gen_refs.py" ggml "$work/dump-fma" "$work/dump-strict" "$out"
