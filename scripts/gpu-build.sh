#!/usr/bin/env bash
# Builds the CUDA binary of spac on a Debian machine with Go: no nvcc, no GPU
# and no CUDA installation needed. Fetches CUDA 11.8's cuda.h and a libcuda
# to link against into .kit/ (scripts/cuda-kit.sh, nothing installed
# system-wide), then builds with the cuda build tag:
#   bin/gpu/spac       the command line with the GPU runner (spac spmv --gpu)
#   bin/gpu/*.test     the GPU tests of gpu (the runtime), apps/spmv, apps/cg,
#                      apps/cfd, apps/traversal and apps/apsp (run on the GPU
#                      machine from the repository root:
#                      for t in bin/gpu/*.test; do $t -test.v; done)
#   bin/gpu/lib/       libmetis.so.5, which the binaries find through their
#                      rpath ($ORIGIN/lib): the GPU machine needs no METIS
# Carry bin/gpu to the GPU machine; it needs the NVIDIA driver (libcuda.so.1)
# and, for the cuSPARSE rows, libcusparse (found at run time). The kernels'
# PTX is embedded (gpu/kernels/*.ptx, apps/*/kernels/*.ptx; 'make ptx' regenerates them).
#
# With --vet it builds nothing: it compiles and vets every package with the
# cuda tag (go vet -tags cuda ./..., tests included), which needs the kit
# but no METIS copy, no GPU and no linking; 'make test' (CI) runs it.
#
# Usage: scripts/gpu-build.sh [--vet]   Env: KIT (default .kit), OUT (default bin/gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
vet=0
if [ "${1:-}" = --vet ]; then vet=1; fi
kit=${KIT:-.kit}
out=${OUT:-bin/gpu}
[ $vet = 1 ] || scripts/setup.sh
scripts/cuda-kit.sh "$kit"
kit=$(cd "$kit" && pwd)
export CGO_ENABLED=1
export CGO_CFLAGS="-I$kit/cuda/usr/include ${CGO_CFLAGS:-}"
# $ORIGIN stays literal: the linker records it, the loader expands it.
export CGO_LDFLAGS="-L$kit/cuda/usr/lib/x86_64-linux-gnu/nvidia/current -Wl,-rpath,\$ORIGIN/lib ${CGO_LDFLAGS:-}"
if [ $vet = 1 ]; then
  go vet -tags cuda ./...
  echo "gpu-build: the CUDA side compiles and vets" >&2
  exit 0
fi
mkdir -p "$out/lib"
# awk reads to the end: exiting at the first match would let ldconfig die of
# SIGPIPE, which pipefail and set -e turn into a silent exit here.
metis=$(ldconfig -p | awk '/libmetis\.so\.5 .*x86-64/ && !found {print $NF; found = 1}')
[ -n "$metis" ] || metis=$(ls /usr/lib/x86_64-linux-gnu/libmetis.so.5 2>/dev/null || true)
[ -n "$metis" ] || { echo "gpu-build: libmetis.so.5 not found (scripts/setup.sh installs libmetis-dev)" >&2; exit 1; }
cp -L "$metis" "$out/lib/libmetis.so.5"
go build -tags cuda ${GOFLAGS_GPU:-} -o "$out/spac" ./cmd/spac
# The GPU tests of every package with kernels: bin/gpu/<pkg>.test.
for pkg in gpu apps/spmv apps/cg apps/cfd apps/traversal apps/apsp apps/particlefilter apps/btree apps/gaussian; do
  if [ -d "$pkg" ]; then go test -c -tags cuda ${GOFLAGS_GPU:-} -o "$out/$(basename "$pkg").test" "./$pkg"; fi
done
echo "gpu-build: built $out/spac and the test binaries (needs libcuda.so.1 from the NVIDIA driver; carry all of $out)" >&2
ldd "$out/spac" | awk '/not found/ && !/libcuda/ {bad=1; print "gpu-build: unresolved: " $0 > "/dev/stderr"} END {exit bad}'
