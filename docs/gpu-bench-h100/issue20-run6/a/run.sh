#!/usr/bin/env bash
# issue 20, round 6 (1): GPU tests, then csr-d16 against cuSPARSE's best path of all on the inputs as given
T0=$SECONDS
tar -xzf bin/c21/b.tgz -C bin
S=bin/gpu/spac
D=$OUT/r6; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spmv-cache
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $D/gpu.txt; nproc >> $D/gpu.txt
(cd apps/spmv && timeout 200 ../../bin/gpu/spmv.test -test.count=1 -test.v 2>&1) > $D/tests.txt; echo "tests rc=$? +$((SECONDS-T0))s"
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; grep -c "^--- PASS" $D/tests.txt
K=csr-d16,csr-vector,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr
for in in cant cop20k_A in-2004 circuit:n=7000000,deg=5; do
  n=${in%%:*}; [ "$n" = circuit ] && n=circuit7M
  l=$((560 - (SECONDS-T0))); [ $l -lt 30 ] && break
  timeout $l $S spmv gen:$in --gpu -b 256,512,1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 -m default --kernels $K --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
done
for f in $D/*.jsonl; do echo "== $f"; python3 - "$f" <<'PY'
import json,sys
rows=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for r in rows:
    if r.get('type')!='row': continue
    if r.get('device')!='gpu' and r.get('Device')!='gpu': pass
    print({k:r[k] for k in r if k in ('kernel','precision','block_size','micros','speedup','format_bytes_per_nnz','note','ok','max_error')})
PY
done 2>&1 | head -150
