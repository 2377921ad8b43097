#!/bin/sh
# setup.sh [BUILDDIR [MESON-OPTION...]]: install what ropelab needs, then build.
#
# ROPELAB_EXTRA_NEED adds 'package:command-or-file' pairs (the test suite
# asks for the locale sources it compiles a comma locale from).
# On Debian/Ubuntu the missing packages are installed with apt-get (as root,
# or through sudo); elsewhere the script only says what is missing.  The
# build goes to BUILDDIR (default: build) next to this repository's
# meson.build.  Everything chatty goes to stderr; stdout stays empty.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
builddir=${1:-build}
[ $# -gt 0 ] && shift
case $builddir in /*) ;; *) builddir=$top/$builddir ;; esac

# Debian packages and the command or file each one provides.  OpenBLAS
# (libopenblas-dev): the default build's CBLAS (meson_options.txt, blas),
# where the trainer runs 4.4x faster than on GSL's gslcblas (issue 35).
ma=$(gcc -print-multiarch 2>/dev/null || true)
[ -n "$ma" ] || ma=$(uname -m)-linux-gnu
need="gcc:gcc libc6-dev:/usr/include/stdio.h meson:meson ninja-build:ninja
pkg-config:pkg-config libgsl-dev:/usr/include/gsl/gsl_rng.h gnuplot-nox:gnuplot
libjansson-dev:/usr/include/jansson.h libopenblas-dev:/usr/lib/$ma/pkgconfig/openblas.pc
${ROPELAB_EXTRA_NEED:-}"
# x86-64: SLEEF, the vector libm of PyTorch's CPU kernels (the *-sleef
# precision pipelines call it; meson.build requires it there)
case $(uname -m) in
  x86_64|amd64) need="$need libsleef-dev:/usr/lib/x86_64-linux-gnu/pkgconfig/sleef.pc" ;;
esac

missing=
for pair in $need; do
  pkg=${pair%%:*} what=${pair#*:}
  case $what in
    /*) [ -e "$what" ] && continue ;;
    *) command -v "$what" >/dev/null 2>&1 && continue ;;
  esac
  missing="$missing $pkg"
done

if [ -n "$missing" ]; then
  echo "setup: installing:$missing" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null 2>&1; then sudo=sudo; else
    echo "setup: missing packages:$missing (run as root or install them)" >&2; exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: missing packages:$missing (no apt-get here: install their equivalents)" >&2; exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq --no-install-recommends $missing >&2
fi

if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" "$top" "$@" >&2
elif [ $# -gt 0 ]; then
  meson configure "$builddir" "$@" >&2
fi
meson compile -C "$builddir" >&2
echo "setup: built $builddir/src/ropelab" >&2
