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
# Usage: scripts/cuda-kit.sh [KIT_DIR]      (default .kit)
# Prints the CGO flags to use; scripts/gpu-build.sh calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
kit=${1:-${KIT:-.kit}}
mkdir -p "$kit"
kit=$(cd "$kit" && pwd)
inc=$kit/cuda/usr/include
lib=$kit/cuda/usr/lib/x86_64-linux-gnu/nvidia/current

if [ -f "$inc/cuda.h" ] && [ -e "$lib/libcuda.so" ]; then
  echo "cuda-kit: $kit is complete" >&2
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
echo "cuda-kit: reading the package lists (bookworm main contrib non-free)" >&2
apt-get "${opts[@]}" -qq update
cd "$apt/debs"
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
