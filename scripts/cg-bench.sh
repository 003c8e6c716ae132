#!/usr/bin/env bash
# CG on the GPU machine, one markdown table per input: cuSPARSE-CG,
# default-schedule CG (coo-atomic), SPAC CG (schedule partitioned before the
# solve; its time reported apart) and SPAC-adapt CG (partitioned in the
# background while the solve runs), with totals, product times and the
# switch iteration; then the same four for repeated-SpMV loops. Every
# input runs in REPS fresh processes, each solving with the four modes in
# turn (so that they share the process's and the machine's state); the
# table shows the process with the median total per mode. A CG row's
# process solves RUNS rounds and reports, per mode, its run with the median
# total: a solve of a few milliseconds varies by tens of percent from one
# fresh process to the next, far more than the 2% the goal asks about. The
# verdict pairs SPAC-adapt with the best other mode of its own process.
# SPAC-adapt runs with its defaults: it starts on cuSPARSE, partitions in a
# child process at nice 19 from 10 ms into the solve on (--adapt-delay), and
# times products only while it compares kernels (as the other modes do).
#
# Runs where bin/gpu/spac runs (the GPU machine; build it with 'make gpu'
# and carry bin/gpu). No Go needed.
#
# Usage: scripts/cg-bench.sh OUTDIR        (run, then write the tables)
#        scripts/cg-bench.sh --report OUTDIR   (tables from OUTDIR/runs.csv again)
# Env: SPAC (bin/gpu/spac), REPS (5), RUNS (11), MATRICES (.kit/matrices), INPUTS
#      (space-separated "input:tol" pairs, "input:tol#runs" to override RUNS),
#      PREC (fp64), HELD (space-separated "input:iterations#runs": CG held to
#      that many iterations with tol 0; empty: none), REPEATS
#      (space-separated "input:products" pairs of the SpMV loops; empty: none)
set -euo pipefail
cd "$(dirname "$0")/.."
report_only=false
if [ "${1-}" = --report ]; then report_only=true; shift; fi
out=${1:?usage: scripts/cg-bench.sh [--report] OUTDIR}
spac=${SPAC:-bin/gpu/spac}
reps=${REPS:-5}
runs=${RUNS:-11}
mats=${MATRICES:-.kit/matrices}
prec=${PREC:-fp64}
# Runs per process: the medians must be steadier than the 2% the goal asks
# about (one short solve varies by 10-20%); bcsstk13's 0.5 s solves take
# fewer.
inputs=${INPUTS-"$mats/bcsstk13.mtx.gz:1e-6#21 gen:stencil2d-1000@0.25:1e-8#41 gen:stencil3d-100@0.125:1e-8#41 gen:cant:1e-10#41 gen:cop20k_A@0.5:1e-10#41"}
# bcsstk13 held to 40,000 iterations: a CG solve that outlasts its
# partition (every mode runs exactly as many iterations, so totals compare).
held=${HELD-"$mats/bcsstk13.mtx.gz:40000#5"}
# cant x 200,000 outlasts its partition (about 2 s) on a kernel where SPAC's
# product is faster: the row that shows the switch paying.
repeats=${REPEATS-"gen:cant:20000 gen:cant:200000 gen:stencil2d-1000@0.25:200000"}
mkdir -p "$out"
csv="$out/runs.csv"
log="$out/runs.log"

# run INPUT TOL WHAT EXTRA...: REPS processes, each solving with every mode
# in turn (--schedule LIST) so that the modes share the machine's state;
# rows appended to runs.csv (header once) with two leading columns: what
# was measured and the process.
run() {
  local in=$1 tol=$2 what=$3 rep
  shift 3
  for rep in $(seq "$reps"); do
    local rows
    rows=$("$spac" cg "$in" --gpu --precision "$prec" --tol "$tol" --schedule cusparse,default,spac,adapt --no-cache "$@" \
      --format csv 2>>"$log") || { echo "cg-bench: $in failed (see runs.log)" >&2; continue; }
    if [ ! -s "$csv" ]; then echo "what,rep,$(echo "$rows" | head -1)" >"$csv"; fi
    echo "$rows" | tail -n +2 | sed "s/^/$what,$rep,/" >>"$csv"
    echo "cg-bench: $what $in rep $rep done" >&2
  done
}

if ! $report_only; then
  : >"$csv"
  : >"$log"
  # split_runs ITEM sets item (ITEM less its #runs) and n (those runs, else RUNS).
  split_runs() { item=$1 n=$runs; case $item in *'#'*) n=${item##*#} item=${item%#*} ;; esac; }
  for item in $inputs; do
    split_runs "$item"
    run "${item%:*}" "${item##*:}" cg --runs "$n"
  done
  for item in $held; do
    split_runs "$item"
    run "${item%:*}" 0 "cg-held${item##*:}" --max-iters "${item##*:}" --runs "$n"
  done
  for item in $repeats; do
    run "${item%:*}" 0 "spmv-x${item##*:}" --repeat "${item##*:}"
  done
fi

# The report: per input and kind, the run with the median total per mode,
# and the verdict: SPAC-adapt against the best other mode of the same
# process, whose modes ran side by side (a fresh process shifts every
# mode's time per iteration by up to 10% on this machine, more than the 2%
# the goal asks about), as the median over the processes.
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
  key = $col["what"] SUBSEP $col["input"]
  if (!(key in seen)) { seen[key] = 1; order[++n] = key }
  m = $col["mode"]; k = key SUBSEP m
  cnt[k]++; row[k, cnt[k]] = $0; tot[k, cnt[k]] = $col["total_ms"] + 0
  r = $col["rep"]
  if (!((key, r) in repSeen)) { repSeen[key, r] = 1; nrep[key]++; repOf[key, nrep[key]] = r }
  # SPAC CG is charged its partition: the comparison is end to end.
  pt[key, r, m] = $col["total_ms"] + (m == "spac" ? $col["partition_ms"] : 0)
  pit[key, r, m] = $col["iterations"] + 0
  # Time per iteration: the median over the runs where the CSV has it
  # (runs that took different counts do not mix), charged the partition.
  per = ("iter_median_us" in col && $col["iter_median_us"] > 0) ? $col["iter_median_us"] / 1000 : $col["total_ms"] / pit[key, r, m]
  pper[key, r, m] = per + (m == "spac" ? $col["partition_ms"] / pit[key, r, m] : 0)
  if (!(key in itLo) || pit[key, r, m] < itLo[key]) itLo[key] = pit[key, r, m]
  if (pit[key, r, m] > itHi[key]) itHi[key] = pit[key, r, m]
}
function sortN(a, c,   i, j, t) {
  for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
}
function median(k,   i, j, t, idx, c) {
  c = cnt[k]
  for (i = 1; i <= c; i++) idx[i] = i
  for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (tot[k, idx[j]] < tot[k, idx[i]]) { t = idx[i]; idx[i] = idx[j]; idx[j] = t }
  return row[k, idx[int((c + 1) / 2)]]
}
END {
  split("cusparse default spac adapt", modes, " ")
  name["cusparse"] = "cuSPARSE-CG"; name["default"] = "default-schedule CG"; name["spac"] = "SPAC CG (precomputed)"; name["adapt"] = "SPAC-adapt CG"
  m2short["cusparse"] = "cuSPARSE-CG"; m2short["default"] = "default CG"; m2short["spac"] = "SPAC CG + partition"
  for (o = 1; o <= n; o++) {
    split(order[o], kw, SUBSEP)
    cg = kw[1] ~ /^cg/
    kind = kw[1] == "cg" ? "CG" : cg ? "CG held to " substr(kw[1], 8) " iterations (tol 0)" : "repeated SpMV (" substr(kw[1], 7) " products)"
    printf "### %s: %s\n\n", kind, kw[2]
    print "| run | final kernel | stop | iterations | residual (true) | total ms | SpMV ms (estimate) | us/iter before / after switch | switch iteration | partitioner |"
    print "|---|---|---|---:|---:|---:|---:|---:|---:|---|"
    for (i = 1; i <= 4; i++) {
      k = order[o] SUBSEP modes[i]
      if (!(k in cnt)) { printf "| %s | (failed) |||||||||\n", name[modes[i]]; continue }
      split(median(k), f, ",")
      t = f[col["total_ms"]] + 0
      part = f[col["partition"]]
      if (part == "background") part = f[col["partition_state"]] == "not-started" ? "not started (the solve ended within --adapt-delay)" : f[col["partition_state"]] " after " sprintf("%.1f", f[col["partition_ms"]]) " ms"
      else if (part == "computed") part = sprintf("%.1f ms before the solve", f[col["partition_ms"]])
      sw = f[col["switch_iteration"]] + 0
      swt = sw == 0 ? "-" : sw (f[col["spac_kept"]] == "true" ? " (kept)" : " (dropped)")
      res = cg ? sprintf("%.2e", f[col["true_residual"]]) : "-"
      printf "| %s | %s | %s | %d | %s | %.2f | %.2f | %.1f / %.1f | %s | %s |\n", name[modes[i]], f[col["final_kernel"]], f[col["stop"]], f[col["iterations"]],
        res, t, f[col["spmv_estimate_ms"]], f[col["iter_before_us"]], f[col["iter_after_us"]], swt, part
    }
    print ""
    # Where the modes took different numbers of iterations (an
    # ill-conditioned matrix, where the summation order decides), total
    # time measures the rounding, so the verdict compares time per
    # iteration instead and says so.
    key = order[o]
    perIter = itHi[key] > 1.01 * itLo[key]
    nr = 0; delete ratio; bests = ""
    for (j = 1; j <= nrep[key]; j++) {
      r = repOf[key, j]
      if (!((key, r, "adapt") in pt)) continue
      fb = -1
      for (i = 1; i <= 3; i++) {
        m = modes[i]
        if (!((key, r, m) in pt)) continue
        v = perIter ? pper[key, r, m] : pt[key, r, m]
        if (fb < 0 || v < fb) { fb = v; bm = m }
      }
      if (fb <= 0) continue
      ratio[++nr] = (perIter ? pper[key, r, "adapt"] : pt[key, r, "adapt"]) / fb
      bests = bests (bests == "" ? "" : ", ") sprintf("%.3f vs %s", ratio[nr], m2short[bm])
    }
    if (nr == 0) continue
    sortN(ratio, nr)
    med = nr % 2 ? ratio[(nr + 1) / 2] : (ratio[nr / 2] + ratio[nr / 2 + 1]) / 2
    if (perIter) printf "Iterations differ between the runs (%d to %d: the summation order decides on this matrix), so the verdict compares time per iteration. ", itLo[key], itHi[key]
    printf "SPAC-adapt %s / best other mode of the same process, median of %d processes: %.3f (goal <= 1.02: %s); per process: %s\n\n",
      perIter ? "time per iteration" : "total", nr, med, med <= 1.02 ? "met" : "missed", bests
  }
}' "$csv" >"$out/tables.md"
echo "cg-bench: wrote $out/tables.md, runs.csv, runs.log" >&2
