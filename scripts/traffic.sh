#!/usr/bin/env bash
# Predicted global-memory traffic of one SpMV (schedule.Traffic, fp64):
# the plain kernel (thread t runs nonzero t in CSR order) against the SPAC
# schedule (reorganized data, x and y staged in shared memory), and, as a
# control, the same scheduled kernel on the default row-order partition
# (what data reorganization and the software cache give without SPAC).
# Elements and 32-byte sectors count every access (loads, stores,
# atomics) per warp instruction; ratio = default / SPAC sectors.
#
# Inputs: the paper's matrix stand-ins (matrices.Preset) at SCALE, and
# every matrix in ../shared/matrices when that folder exists.
# Usage: scripts/traffic.sh [SCALE] [BLOCK_SIZE]   (defaults 0.1 and 1024)
# Env: SPAC_BIN (a spac binary to use instead of building bin/spac),
#      TRAFFIC_DIR (where generated inputs go, default /tmp/spac-traffic).
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-0.1}
bs=${2:-1024}
dir=${TRAFFIC_DIR:-/tmp/spac-traffic}
mkdir -p "$dir"
bin=${SPAC_BIN:-}
if [ -z "$bin" ]; then
  scripts/setup.sh
  go build -o bin/spac ./cmd/spac
  bin=bin/spac
fi
"$bin" schedule --help >/dev/null 2>&1 || { echo "traffic: $bin has no schedule command (main.go must add scheduleCommands())" >&2; exit 1; }

inputs=()
for p in cant circuit5M cop20k_A Ga41As41H72 in-2004 mac_econ_fwd500 mc2depi scircuit; do
  f="$dir/$p-$scale.mtx"
  [ -f "$f" ] || "$bin" gen "$p" --scale "$scale" --seed 1 -o "$f" 2>/dev/null
  inputs+=("$f")
done
if [ -d ../shared/matrices ]; then
  for f in ../shared/matrices/*.gz; do inputs+=("$f"); done
fi

# field KEY N OUT: the Nth word after the key on the line that starts with KEY.
field() { awk -v k="$1" -v n="$2" 'index($0, k) == 1 { sub("^" k " *", ""); split($0, a, /[ ;,()]+/); print a[n]; exit }' <<<"$3"; }

echo "Predicted SpMV traffic, fp64, block size $bs (presets at scale $scale, symmetric matrices expanded)"
echo
echo "| input | nnz | blocks | default elements | default sectors | SPAC elements | SPAC sectors | sector ratio | element ratio | default-partition schedule sectors | max smem fp64 B | max smem fp32 B | partition s | build s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for f in "${inputs[@]}"; do
  name=$(basename "$f"); name=${name%.gz}
  s=$("$bin" schedule "$f" --method spac -b "$bs" --no-cache --quiet)
  d=$("$bin" schedule "$f" --method default -b "$bs" --no-cache --quiet)
  nnz=$(field "matrix" 4 "$s")
  blocks=$(field "blocks" 1 "$s")
  de=$(field "traffic fp64" 2 "$s"); ds=$(field "traffic fp64" 4 "$s")
  se=$(field "traffic fp64" 7 "$s"); ss=$(field "traffic fp64" 9 "$s")
  er=$(field "traffic fp64" 12 "$s"); sr=$(field "traffic fp64" 14 "$s")
  cs=$(field "traffic fp64" 9 "$d")
  m64=$(field "shared memory" 1 "$s"); m32=$(field "shared memory" 4 "$s")
  pt=$(field "partition time" 1 "$s"); bt=$(field "build time" 1 "$s")
  echo "| $name | $nnz | $blocks | $de | $ds | $se | $ss | $sr | $er | $cs | $m64 | $m32 | $pt | $bt |"
done
