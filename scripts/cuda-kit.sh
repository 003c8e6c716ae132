#!/usr/bin/env bash
# Fetches what building the CUDA binary needs, into an ignored folder of the
# repository, with nothing installed system-wide:
#   - cuda.h of CUDA 11.8 (Debian bookworm non-free: nvidia-cuda-dev), which
#     gorgonia.org/cu v0.9.6 compiles against (it targets the CUDA 11 API);
#   - the driver library libcuda.so (Debian non-free: libcuda1), to link
#     against; the binary records its soname libcuda.so.1 and uses the
#     driver's own library on the GPU machine.
# apt runs with a private configuration (its own sources list with non-free,
# its own lists and cache under the kit), so the machine's apt setup is not
# touched and no root is needed. Idempotent: a complete kit is left alone.
#
# With --nvcc it fetches CUDA 11.8's nvcc instead (Debian non-free:
# nvidia-cuda-toolkit, nvidia-cuda-dev, libnvvm4; about 3 GB unpacked) into
# KIT_DIR/nvcc, so that 'make ptx' can regenerate the kernels' PTX on a
# machine without CUDA. nvcc 11.8's PTX (ISA 7.8) loads on any driver from
# CUDA 11.8 on.
#
# Usage: scripts/cuda-kit.sh [--nvcc] [KIT_DIR]      (default .kit)
# Prints the CGO flags to use; scripts/gpu-build.sh calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
want_nvcc=0
if [ "${1:-}" = --nvcc ]; then want_nvcc=1; shift; fi
kit=${1:-${KIT:-.kit}}
mkdir -p "$kit"
kit=$(cd "$kit" && pwd)
inc=$kit/cuda/usr/include
lib=$kit/cuda/usr/lib/x86_64-linux-gnu/nvidia/current

nvcc_bin=$kit/nvcc/usr/lib/nvidia-cuda-toolkit/bin/nvcc
if [ $want_nvcc = 0 ] && [ -f "$inc/cuda.h" ] && [ -e "$lib/libcuda.so" ]; then
  echo "cuda-kit: $kit is complete" >&2
  exit 0
fi
if [ $want_nvcc = 1 ] && [ -x "$nvcc_bin" ] && [ -f "$kit/nvcc/usr/include/cuda_runtime.h" ]; then
  echo "cuda-kit: nvcc is ready: $nvcc_bin" >&2
  exit 0
fi
for t in apt-get dpkg-deb tar; do
  command -v $t >/dev/null 2>&1 || { echo "cuda-kit: needs $t (a Debian or Ubuntu machine)" >&2; exit 1; }
done
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
case "$codename" in
  bookworm|trixie) ;;
  *) echo "cuda-kit: warning: $codename is not Debian bookworm; fetching bookworm's packages anyway" >&2; codename=bookworm ;;
esac

apt=$kit/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/etc/preferences.d" "$apt/debs"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || { echo "cuda-kit: $keyring is missing (apt-get install debian-archive-keyring)" >&2; exit 1; }
cat >"$apt/etc/sources.list" <<SRC
deb [arch=amd64 signed-by=$keyring] http://deb.debian.org/debian $codename main contrib non-free
deb [arch=amd64 signed-by=$keyring] http://deb.debian.org/debian $codename-updates main contrib non-free
SRC
opts=(-o "Dir::Etc::SourceList=$apt/etc/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
      -o "Dir::Etc::PreferencesParts=$apt/etc/preferences.d"
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
      -o "APT::Architecture=amd64" -o "APT::Architectures=amd64" -o "Debug::NoLocking=1")
# As root, apt would hand the download to its _apt user, who cannot write
# into the kit; downloading as root is what it falls back to anyway, minus
# the warning.
[ "$(id -u)" -eq 0 ] && opts+=(-o "APT::Sandbox::User=root")
echo "cuda-kit: reading the package lists (bookworm main contrib non-free)" >&2
apt-get "${opts[@]}" -qq update
cd "$apt/debs"
if [ $want_nvcc = 1 ]; then
  for p in nvidia-cuda-toolkit nvidia-cuda-dev libnvvm4; do
    ls ${p}_*.deb >/dev/null 2>&1 && continue
    echo "cuda-kit: downloading $p" >&2
    apt-get "${opts[@]}" -qq download $p
  done
  rm -rf "$kit/nvcc.tmp" && mkdir -p "$kit/nvcc.tmp"
  for p in nvidia-cuda-toolkit nvidia-cuda-dev libnvvm4; do dpkg-deb -x ${p}_*.deb "$kit/nvcc.tmp"; done
  # Debian's profile points at /usr; this one at the unpacked tree.
  bin=$kit/nvcc.tmp/usr/lib/nvidia-cuda-toolkit/bin
  rm -f "$bin/nvcc.profile"
  cat >"$bin/nvcc.profile" <<'PROFILE'
TOP = $(_HERE_)/../../..
NVVMIR_LIBRARY_DIR = $(TOP)/lib/nvidia-cuda-toolkit/libdevice
PATH += $(_HERE_):$(TOP)/bin:
INCLUDES += "-I$(TOP)/include" $(_SPACE_)
LIBRARIES =+ $(_SPACE_) -L$(TOP)/lib/x86_64-linux-gnu
PROFILE
  rm -rf "$kit/nvcc" && mv "$kit/nvcc.tmp" "$kit/nvcc"
  rm -f nvidia-cuda-toolkit_*.deb nvidia-cuda-dev_*.deb libnvvm4_*.deb
  echo "cuda-kit: nvcc is ready: $nvcc_bin (scripts/gen-ptx.sh finds it)" >&2
  exit 0
fi
if ! ls nvidia-cuda-dev_*.deb >/dev/null 2>&1; then
  echo "cuda-kit: downloading nvidia-cuda-dev (CUDA 11.8 headers, about 770 MB; only cuda.h is kept)" >&2
  apt-get "${opts[@]}" -qq download nvidia-cuda-dev
fi
if ! ls libcuda1_*.deb >/dev/null 2>&1; then
  echo "cuda-kit: downloading libcuda1 (the driver library to link against)" >&2
  apt-get "${opts[@]}" -qq download libcuda1
fi
mkdir -p "$kit/cuda"
dpkg-deb --fsys-tarfile nvidia-cuda-dev_*.deb | tar -x -C "$kit/cuda" ./usr/include/cuda.h ./usr/include/cudaProfiler.h 2>/dev/null \
  || dpkg-deb --fsys-tarfile nvidia-cuda-dev_*.deb | tar -x -C "$kit/cuda" ./usr/include/cuda.h
dpkg-deb -x libcuda1_*.deb "$kit/cuda"
if [ ! -e "$lib/libcuda.so" ]; then
  so=$(ls "$lib"/libcuda.so.1 2>/dev/null || ls "$lib"/libcuda.so.* | head -1)
  ln -sf "$(basename "$so")" "$lib/libcuda.so"
fi
[ -f "$inc/cuda.h" ] && [ -e "$lib/libcuda.so" ] || { echo "cuda-kit: the packages did not hold cuda.h and libcuda.so where expected" >&2; exit 1; }
rm -f nvidia-cuda-dev_*.deb   # 770 MB for one header
echo "cuda-kit: ready: CGO_CFLAGS=-I$inc CGO_LDFLAGS=-L$lib" >&2
