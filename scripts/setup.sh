#!/usr/bin/env bash
# Installs what building and testing need on a Debian machine with Go:
# gcc for cgo and METIS 5 (libmetis-dev). With --mpi, also what the MPI
# build needs (build tag mpi: distributed SPAC and the hypergraph
# baseline): OpenMPI (openmpi-bin, libopenmpi-dev), PT-Scotch
# (libptscotch-dev), Zoltan (libtrilinos-zoltan-dev) and pkg-config.
# Idempotent: does nothing when everything is there already.
# Usage: scripts/setup.sh [--mpi]
#        scripts/setup.sh --mpi-check   exit 0 when the MPI packages are installed
set -euo pipefail

mpi_packages=(pkg-config openmpi-bin libopenmpi-dev libptscotch-dev libtrilinos-zoltan-dev)

missing() { for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done; }

case "${1:-}" in
--mpi-check)
  [ -z "$(missing "${mpi_packages[@]}")" ] && command -v mpirun >/dev/null 2>&1
  exit
  ;;
esac

need=()
command -v gcc >/dev/null 2>&1 || need+=(gcc)
dpkg -s libmetis-dev >/dev/null 2>&1 || need+=(libmetis-dev)
if [ "${1:-}" = --mpi ]; then
  mapfile -t more < <(missing "${mpi_packages[@]}")
  need+=("${more[@]}")
fi
command -v go >/dev/null 2>&1 || { echo "setup: Go is not on PATH; install Go 1.22 or newer first (https://go.dev/dl/)" >&2; exit 1; }

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install: ${need[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${need[@]}" >/dev/null
