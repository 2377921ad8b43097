#!/bin/sh
# train_binary.sh: the trainer a new user's Quick start gets (Meson's
# default build: release, OpenBLAS, installed by setup.sh when missing),
# built without the tests into build-train-defaults; prints the binary's
# path on standard output, the build's messages on standard error.  The
# trained studies (train_defaults.sh, trained_vs_free.sh) run it unless
# ROPELAB names a binary, so that they measure one and the same build.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build-train-defaults
ROPELAB_EXTRA_NEED="libopenblas-dev:/usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h" \
  "$top/experiments/setup.sh" "$build" -Dtests=false >&2
echo "$build/src/ropelab"
