#!/bin/sh
# make_ref.sh GGML_SRC [OUTDIR]: rebuild the reference GGUF files of
# test_gguf with ggml's own GGUF writer.  GGML_SRC is a checkout of
# https://github.com/ggml-org/ggml (the committed files were made from
# commit d99724f2b141fed9e1a9f402213506c081433465, 2026-08-21); OUTDIR
# defaults to this folder.  Needs cmake and a C/C++ compiler; builds only
# the ggml-base library (ggml.c, gguf.cpp), no backend.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: make_ref.sh GGML_SRC [OUTDIR]}
out=${2:-$here}
# GGML_BUILD: an existing cmake build directory of that checkout to reuse;
# GGML_COMMIT: the commit, when GGML_SRC is an export rather than a checkout
build=${GGML_BUILD:-$(mktemp -d)}
[ -n "${GGML_BUILD:-}" ] || trap 'rm -rf "$build"' EXIT
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGGML_CPU=OFF -DGGML_BACKEND_DL=OFF \
  -DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF -DGGML_BUILD_TESTS=OFF -DGGML_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" --target ggml-base >/dev/null
cc -std=c11 -O1 -I"$src/include" "$here/gguf_ref.c" "$build/src/libggml-base.a" -lstdc++ -lm -fopenmp \
  -lpthread -o "$build/gguf_ref"
"$build/gguf_ref" "$build"
# as C arrays, so that the unit test needs no path to the source tree
commit=${GGML_COMMIT:-$(git -C "$src" rev-parse HEAD 2>/dev/null || echo '(not a git checkout)')}
{
  echo "/* ggml_ref.h: GGUF files written by ggml's own writer (gguf_ref.c, run by"
  echo " * make_ref.sh with ggml $commit); do not edit. */"
  for f in phi3_mini_128k llama31_8b llama31_8b_align64; do
    echo "static const unsigned char ref_$f[] = {"
    od -An -v -tu1 "$build/$f.ggml.gguf" | sed 's/  */ /g; s/^ //; s/ $//; s/ /, /g; s/$/,/; s/^/  /'
    echo "};"
  done
} >"$out/ggml_ref.h"
echo "make_ref: wrote $out/ggml_ref.h from ggml $commit" >&2
