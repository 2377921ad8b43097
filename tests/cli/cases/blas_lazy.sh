# OpenBLAS is opened only by a command that multiplies matrices with it
# (src/core/base/blas.c): loading it costs a process about 8 ms of CPU and
# its constructor started a thread per core, so --version, freqs and decay
# must not open it (the binary that linked it did: 2 file= lines each, and
# a 120 MB address-space limit hung it, case sweep_memory_bounded); train
# opens it exactly when its table says blas=openblas (a build without
# OpenBLAS says gsl and opens nothing).  glibc's loader trace (LD_DEBUG)
# names every shared object a process opens; skipped without it.
LD_DEBUG=files "$ROPELAB" --version 2> trace > /dev/null
grep -q 'file=libc\.so' trace || { echo "no glibc LD_DEBUG trace" >&2; exit 77; }
for args in "--version" "freqs" "decay --to 4"; do
  # shellcheck disable=SC2086
  LD_DEBUG=files "$ROPELAB" $args 2> trace > /dev/null
  echo "$args: $(grep -c 'file=libopenblas' trace) openblas"
done
LD_DEBUG=files "$ROPELAB" train --steps 2 --layers 1 --eval-len 2 --eval-samples 4 \
  2> trace > table.csv || exit 1
blas=$(sed -n 's/^# blas=//p' table.csv)
opened=$(grep -c 'file=libopenblas.*dynamically loaded' trace)
case $blas:$opened in
  openblas:1|gsl:0) echo "train: opened OpenBLAS as its table says" ;;
  *) echo "train: blas=$blas but OpenBLAS opened $opened times" ;;
esac
