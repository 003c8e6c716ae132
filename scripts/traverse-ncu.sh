#!/usr/bin/env bash
# Nsight Compute counters of one traversal, to say what bounds a strategy
# that misses its goal: DRAM and L2 throughput, L2 hit rate, atomics,
# achieved occupancy, per kernel launch. Runs `spac ARGS` (one root, e.g.
# --root 0 --no-validate) under ncu and writes OUT/ncu/LABEL.csv (ncu's raw
# page), which scripts/traverse-report sums per kernel into the report.
# Launches inside captured CUDA graphs are profiled one by one (ncu's node
# mode); the clocks are not locked (--clock-control none), as in the runs.
#
# Usage: scripts/traverse-ncu.sh OUT LABEL SPAC_ARGS...
# Env:   SPAC (bin/gpu/spac), NCU (ncu on the PATH, else /usr/local/cuda/bin/ncu)
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: scripts/traverse-ncu.sh OUT LABEL SPAC_ARGS..." >&2; exit 2; }
out=$1 label=$2
shift 2
spac=${SPAC:-bin/gpu/spac}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size
mkdir -p "$out/ncu"
"$ncu" --metrics "$metrics" --csv --page raw --clock-control none --log-file "$out/ncu/$label.csv" "$spac" "$@" >"$out/ncu/$label.out" 2>&1
echo "traverse-ncu: $label: $(($(wc -l <"$out/ncu/$label.csv") - 2)) launches profiled" >&2
