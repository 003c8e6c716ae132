#!/usr/bin/env bash
# Packs the MPI build (bin/mpi/spac) with the OpenMPI runtime, PT-Scotch,
# Zoltan and every shared library they load into one relocatable tarball,
# for a Linux machine that has more cores than this one but none of
# Debian's MPI packages and no network (the GPU machines): there
#   tar -xzf mpi-bundle.tgz -C DIR && . DIR/mpi-bundle/env.sh
# puts mpirun and spac-mpi on the PATH (OPAL_PREFIX points OpenMPI at the
# bundle's plugins and help files; LD_LIBRARY_PATH at its libraries), and
# scripts/mpi-scale.sh runs with SPAC=spac-mpi SINGLE=spac-mpi.
# Only what a single-node run uses goes in: the shared-memory, TCP and
# self transports and OpenMPI's own launcher; the InfiniBand, OFI, UCX and
# PSM plugins (and their libraries) stay out, and env.sh tells OpenMPI not
# to look for them.
# Usage: scripts/mpi-bundle.sh [OUT.tgz]   (default bin/mpi-bundle.tgz)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bin/mpi-bundle.tgz}
make --no-print-directory mpi >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/mpi-bundle
# OpenMPI's layout under its prefix (Debian's: ompi_info --path all),
# which OPAL_PREFIX relocates as a whole.
pkglib=lib/x86_64-linux-gnu/openmpi/lib/openmpi3
mkdir -p "$b/usr/bin" "$b/usr/$pkglib" "$b/usr/share" "$b/lib" "$b/usr/lib/x86_64-linux-gnu/pmix2/lib"
cp bin/mpi/spac "$b/usr/bin/spac-mpi"
cp /usr/bin/orterun "$b/usr/bin/mpirun"
cp /usr/bin/orted "$b/usr/bin/orted"
cp -r /usr/share/openmpi "$b/usr/share/openmpi"
cp -r /usr/lib/x86_64-linux-gnu/pmix2/lib/pmix "$b/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix"
[ -d /usr/lib/x86_64-linux-gnu/pmix2/share ] && cp -r /usr/lib/x86_64-linux-gnu/pmix2/share "$b/usr/lib/x86_64-linux-gnu/pmix2/share"
for f in /usr/$pkglib/*.so; do
  case $(basename "$f") in
    *ucx* | *ofi* | *openib* | *psm* | *verbs*) continue ;;
  esac
  cp "$f" "$b/usr/$pkglib/"
done
# Every library the binaries and plugins load, but the C library's own
# (the target's must serve: it runs this machine's Go binaries already).
libs() { ldd "$@" 2>/dev/null | awk '$3 ~ /^\// { print $3 }' | sort -u; }
for l in $(libs "$b/usr/bin/spac-mpi" "$b/usr/bin/mpirun" "$b/usr/bin/orted" "$b/usr/$pkglib"/*.so "$b"/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix/*.so); do
  case $(basename "$l") in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux*) continue ;;
  esac
  cp -L "$l" "$b/lib/"
done
cat >"$b/env.sh" <<'EOF'
# Source me: the bundle's OpenMPI and spac-mpi first on the paths.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$here/usr
export PMIX_INSTALL_PREFIX=$here/usr/lib/x86_64-linux-gnu/pmix2
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$here/usr/bin:$PATH
# one node: shared memory, TCP and self; no fabric plugins were packed
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_mtl=^ofi,psm,psm2 OMPI_MCA_osc=^ucx
export OMPI_MCA_btl_vader_single_copy_mechanism=none
EOF
mkdir -p "$(dirname "$out")"
tar -czf "$out" -C "$tmp" mpi-bundle
echo "wrote $out ($(du -h "$out" | cut -f1)): tar -xzf it, then . mpi-bundle/env.sh" >&2
