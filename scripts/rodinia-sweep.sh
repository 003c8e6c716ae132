#!/usr/bin/env bash
# The Rodinia block-size sweep of the paper's Figs. 14 and 15: for each of
# cfd, btree, gaussian and particlefilter, the original kernels, the
# original on RCM-ordered data and SPAC, time at every block size on the
# GPU, each run checked against its CPU reference; then Nsight Compute's
# DRAM and L2 counters of original, RCM and SPAC (and b+tree's spac-swap)
# at one block size per app; then
# the report ('spac rodinia report'): report.md with the Fig. 15 table
# (best of each variant over block sizes, SPAC's over the original's and
# RCM's, the partition time beside it), fig14.svg/png, fig15.svg/png,
# results.csv. Runs ON the GPU machine with the binary built here ('make
# gpu'; that machine needs no Go), or renders a copied OUTDIR here:
# REPORT_ONLY=1 scripts/rodinia-sweep.sh OUTDIR.
#
# Writes into OUTDIR: json/APP.INPUT.json (and .err: each process's
# stderr), ncu/APP.VARIANT.B.csv, how.md (the commands), log.txt, and the
# report's files. Running it again on the same OUTDIR adds to it (a later
# run of a configuration replaces an earlier one in the report).
#
# Usage: scripts/rodinia-sweep.sh OUTDIR
# Env: SPAC (bin/gpu/spac; for REPORT_ONLY, 'go run ./cmd/spac' where it
#      is missing), APPS (cfd btree gaussian particlefilter), and per app
#      its inputs and flags:
#        CFD_INPUTS (fvcorr-097k), CFD_ARGS (-b 128,192,256,384,512,1024 --precision fp32,fp64 -n 20)
#        BTREE_INPUTS (mil), BTREE_ARGS (-b 32,64,128,256,512,1024 --variant original,rcm,spac,spac-swap)
#        GAUSSIAN_INPUTS (matrix:n=1024), GAUSSIAN_ARGS (-b 32,64,128,256,512,1024 --precision fp32,fp64)
#        PF_INPUTS (rodinia), PF_ARGS (-b 32,64,128,256,512,1024 --variant original,naive,rcm,spac)
#      (cfd's -n is the CPU reference's length: the GPU's time is one
#      iteration's whatever it is; the paper's shapes are the defaults, the
#      larger inputs btree h100, gaussian matrix:n=4096 and particlefilter
#      h100 are for a second call with NCU=0), TIMEOUT (seconds per
#      process, 600), DEADLINE (seconds for the runs and counters together,
#      none), NCU (auto: where ncu is found; 0: off), NCU_BLOCKS (the block
#      size of each app's counters: cfd=128 btree=256 gaussian=256
#      particlefilter=128: Rodinia's b+tree order, where the paper has
#      gaussian gain and particlefilter's 2.40x), NCU_TIMEOUT (120).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/rodinia-sweep.sh OUTDIR}
spac=${SPAC:-bin/gpu/spac}
apps=${APPS:-cfd btree gaussian particlefilter}
limit=${TIMEOUT:-600}
deadline=${DEADLINE:-0}
ncuBlocks=${NCU_BLOCKS:-cfd=128 btree=256 gaussian=256 particlefilter=128}
mkdir -p "$out/json" "$out/ncu"
log=$out/log.txt
touch "$log"
start=$SECONDS
stamp() { date -u +%H:%M:%S; }
say() { echo "rodinia-sweep: $(stamp) $*" | tee -a "$log" >&2; }
# left is the seconds a step may take: TIMEOUT, or what DEADLINE leaves.
left() {
  local l=$limit
  if [ "$deadline" -gt 0 ]; then
    l=$((deadline - (SECONDS - start)))
    [ "$l" -gt "$limit" ] && l=$limit
  fi
  echo "$l"
}
name() { echo "${1//[^A-Za-z0-9._-]/_}"; }

inputs() {
  case $1 in
  cfd) echo "${CFD_INPUTS:-fvcorr-097k}" ;;
  btree) echo "${BTREE_INPUTS:-mil}" ;;
  gaussian) echo "${GAUSSIAN_INPUTS:-matrix:n=1024}" ;;
  particlefilter) echo "${PF_INPUTS:-rodinia}" ;;
  esac
}
args() {
  case $1 in
  cfd) echo "${CFD_ARGS:--b 128,192,256,384,512,1024 --precision fp32,fp64 -n 20}" ;;
  btree) echo "${BTREE_ARGS:--b 32,64,128,256,512,1024 --variant original,rcm,spac,spac-swap}" ;;
  gaussian) echo "${GAUSSIAN_ARGS:--b 32,64,128,256,512,1024 --precision fp32,fp64}" ;;
  particlefilter) echo "${PF_ARGS:--b 32,64,128,256,512,1024 --variant original,naive,rcm,spac}" ;;
  esac
}
# The flag that picks variants, the variants profiled, and the block size
# of an app's counters.
variantFlag() { [ "$1" = cfd ] && echo --schedule || echo --variant; }
profiled() { [ "$1" = btree ] && echo original rcm spac spac-swap || echo original rcm spac; }
ncuBlock() {
  local kv
  for kv in $ncuBlocks; do
    [ "${kv%%=*}" = "$1" ] && { echo "${kv#*=}"; return; }
  done
  echo 128
}

if [ "${REPORT_ONLY:-0}" != 1 ]; then
  [ -x "$spac" ] || { echo "rodinia-sweep: no binary at $spac (build it with 'make gpu' and carry bin/gpu)" >&2; exit 1; }
  {
    echo "rodinia-sweep: $(stamp) on $(hostname), $(nproc) cores"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1
  } | tee -a "$log" >&2
  {
    echo
    echo "## How these numbers were made"
    echo
    echo '```sh'
    echo "# on the GPU machine ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)), $(date -u +%Y-%m-%d)"
    echo "APPS='$apps' scripts/rodinia-sweep.sh $out"
    for app in $apps; do
      for in in $(inputs "$app"); do echo "$spac $app $in --gpu $(args "$app") --format json"; done
    done
    echo '```'
  } >>"$out/how.md"
  for app in $apps; do
    if ! "$spac" "$app" --help >/dev/null 2>&1; then
      say "$app: '$spac $app --help' failed (no such command, or the binary does not start); skipped"
      continue
    fi
    for in in $(inputs "$app"); do
      t=$(left)
      if [ "$t" -le 5 ]; then
        say "$app $in: skipped, the deadline is reached"
        continue
      fi
      f=$out/json/$app.$(name "$in")
      t0=$SECONDS
      # shellcheck disable=SC2046 # the flags are words
      timeout "$t" "$spac" "$app" "$in" --gpu $(args "$app") --format json >"$f.json" 2>"$f.err"
      rc=$?
      say "$app $in: exit $rc in $((SECONDS - t0)) s: $spac $app $in --gpu $(args "$app") --format json"
      if [ $rc -ne 0 ]; then
        tail -3 "$f.err" | tee -a "$log" >&2
        # A run that disagrees with its reference still writes its whole
        # document (exit 1 after it), which the report shows; one cut
        # short stays aside.
        grep -q '"runs"' "$f.json" && tail -c 4 "$f.json" | grep -q '}' || mv "$f.json" "$f.json.failed"
      fi
    done
  done

  # Counters of one run of each variant at the app's block size of
  # NCU_BLOCKS, on each app's first input: cfd's flux kernels (one launch
  # each); the particle filter's kernels of the timed run (the warm-up
  # run's launches are skipped: 5 a frame for original and rcm, 7 for
  # spac); btree's kernels of one run without the reference (its check,
  # warm-up and timed launch of each kind); gaussian's first 60 kernels
  # (pivot steps 0 to 29 of its first elimination: ncu's replays of every
  # launch of an elimination would take minutes). The timer's own spin kernel
  # (gpu_spin) is left out by the kernel filters. The profiled process's
  # own table (ncu/APP.VARIANT.B.out) times ncu's replays of each launch
  # between its events (btree mil at B=256 prints 134 ms for a 24 us
  # launch): the kernels' times are the CSV's gpu__time_duration.
  if [ "${NCU:-auto}" != 0 ] && command -v ncu >/dev/null 2>&1; then
    metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
    metrics+=,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum
    metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
    for app in $apps; do
      "$spac" "$app" --help >/dev/null 2>&1 || continue
      in=$(inputs "$app" | awk '{print $1}')
      nb=$(ncuBlock "$app")
      for v in $(profiled "$app"); do
        t=$(left)
        [ "$t" -gt "${NCU_TIMEOUT:-120}" ] && t=${NCU_TIMEOUT:-120}
        if [ "$t" -le 5 ]; then
          say "ncu $app $v: skipped, the deadline is reached"
          continue
        fi
        sel=()
        extra=()
        case $app in
        cfd)
          sel=(-k 'regex:cfd_(spac_)?flux' -c 1)
          extra=(-n 1 --no-reference --precision fp32)
          ;;
        particlefilter)
          frames=$(grep -o '"frames": *[0-9]*' "$out/json/particlefilter.$(name "$in").json" 2>/dev/null | grep -o '[0-9]*$')
          per=5
          [ "$v" = spac ] && per=7
          n=$(((${frames:-10} - 1) * per))
          sel=(-k 'regex:pf_' --launch-skip "$n" -c "$n")
          ;;
        gaussian)
          sel=(-k 'regex:^gaussian_' -c 60)
          extra=(--reps 1 --no-reference)
          ;;
        btree)
          sel=(-k 'regex:^btree_' -c 400)
          extra=(--reps 1 --no-reference)
          ;;
        esac
        t0=$SECONDS
        timeout "$t" ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" "${sel[@]}" \
          --log-file "$out/ncu/$app.$v.$nb.csv" "$spac" "$app" "$in" --gpu "$(variantFlag "$app")" "$v" -b "$nb" "${extra[@]}" --quiet \
          >"$out/ncu/$app.$v.$nb.out" 2>"$out/ncu/$app.$v.$nb.err"
        say "ncu $app $in $v B=$nb: exit $? in $((SECONDS - t0)) s"
      done
    done
    # ncu's raw page has hundreds of device columns: keep the launch's
    # identity and the metrics (what the report reads), where python3 is.
    if command -v python3 >/dev/null 2>&1; then
      for f in "$out"/ncu/*.csv; do
        [ -s "$f" ] || continue
        python3 - "$f" <<'PY' || say "could not trim $f"
import csv, sys
path = sys.argv[1]
lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
head = [l for l in lines if not l.startswith('"')]
rows = list(csv.reader([l for l in lines if l.startswith('"')]))
if rows:
    ids = ("ID", "Kernel Name", "Block Size", "Grid Size", "launch__registers_per_thread", "launch__shared_mem_per_block_dynamic",
           "launch__waves_per_multiprocessor")
    units = ("dram", "lts", "l1tex", "gpu", "sm", "smsp")
    keep = [i for i, h in enumerate(rows[0])
            if h in ids or h.split("__")[0] in units and h.endswith((".sum", ".pct"))]
    with open(path, "w", newline="") as f:
        f.write("".join(l + "\n" for l in head))
        w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n")
        for r in rows:
            w.writerow([r[i] if i < len(r) else "" for i in keep])
PY
      done
    fi
  else
    say "Nsight Compute (ncu) not found or NCU=0: no counters"
  fi
fi

jsons=()
for f in "$out"/json/*.json; do [ -s "$f" ] && jsons+=("$f"); done
[ ${#jsons[@]} -gt 0 ] || { echo "rodinia-sweep: no results (see $log)" >&2; exit 1; }
if [ -x "$spac" ]; then
  rep=("$spac")
elif command -v go >/dev/null 2>&1; then
  rep=(go run ./cmd/spac)
else
  echo "rodinia-sweep: no binary at $spac and no Go to run cmd/spac: render $out where one of them is, with REPORT_ONLY=1" >&2
  exit 1
fi
ncuDir=()
ls "$out"/ncu/*.csv >/dev/null 2>&1 && ncuDir=(--ncu "$out/ncu")
"${rep[@]}" rodinia report -o "$out" "${ncuDir[@]}" "${jsons[@]}" 2>>"$log" || { echo "rodinia-sweep: the report failed (see $log)" >&2; exit 1; }
[ -s "$out/how.md" ] && cat "$out/how.md" >>"$out/report.md"
{
  echo
  echo "Processes:"
  echo
  grep -E "^rodinia-sweep: .* (exit|skipped)" "$log" | sed 's/^rodinia-sweep: /- /'
} >>"$out/report.md"
say "wrote $out/report.md"
