#!/bin/sh
# run.sh [BUILDDIR]: install ropelab into a temporary prefix and build
# example.c against it with `pkg-config --cflags --libs ropelab`, as a
# program of your own would; then run it.
#
# With BUILDDIR (an existing build of this repository) the build is
# installed from there with `meson install --destdir`; without, the
# repository is configured and built afresh for the temporary prefix
# (experiments/setup.sh installs what is missing).  The prefix is removed
# at the end; set KEEP=1 to keep it and see what `meson install` puts
# where: bin/ropelab, lib/<triplet>/libropelab.so* (or .a with
# -Ddefault_library=static, then linked with pkg-config --static),
# include/ropelab.h,
# lib/<triplet>/pkgconfig/ropelab.pc, share/man/man1/ropelab.1,
# share/bash-completion/completions/ropelab, share/ropelab/plots/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ropelab-libexample.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT INT TERM

if [ $# -ge 1 ]; then
  build=$(cd "$1" && pwd)
  meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/dest" >&2
  pc=$(find "$tmp/dest" -name ropelab.pc | head -n 1)
  # the .pc names the configured prefix; under --destdir it lives below $tmp/dest
  prefix=$(PKG_CONFIG_PATH=${pc%/*} pkg-config --variable=prefix ropelab)
  pkgconf() { PKG_CONFIG_PATH=${pc%/*} pkg-config --define-variable=prefix="$tmp/dest$prefix" "$@"; }
else
  sh "$top/experiments/setup.sh" "$tmp/build" --prefix="$tmp/prefix" -Dtests=false
  meson install -C "$tmp/build" --quiet >&2
  pc=$(find "$tmp/prefix" -name ropelab.pc | head -n 1)
  pkgconf() { PKG_CONFIG_PATH=${pc%/*} pkg-config "$@"; }
  prefix=$tmp/prefix
fi

libdir=$(pkgconf --variable=libdir ropelab)
# a static-only install (-Ddefault_library=static): link as pkg-config
# says static libraries are linked, with their private dependencies
static=
ls "$libdir"/libropelab.so* >/dev/null 2>&1 || static=--static
cflags=$(pkgconf --cflags $static ropelab)
libs=$(pkgconf --libs $static ropelab)
echo "libexample: cc example.c $cflags $libs" >&2
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$tmp/example" "$here/example.c" $cflags $libs -lm
# The .pc of any prefix but /usr links an rpath to its libdir, so the
# program runs as built, with no LD_LIBRARY_PATH (cleared here so that it
# proves that); only a /usr build installed into a --destdir needs one.
case " $libs " in
  *" -Wl,-rpath,"*) env -u LD_LIBRARY_PATH "$tmp/example" ;;
  *)
    [ "$prefix" = /usr ] || [ -n "$static" ] ||
      { echo "libexample: ropelab.pc gives no rpath for prefix '$prefix'" >&2; exit 1; }
    LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$tmp/example" ;;
esac
