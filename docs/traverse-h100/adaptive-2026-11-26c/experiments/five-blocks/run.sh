#!/usr/bin/env bash
# issue 17: ad_persist's grid from the driver's occupancy (gpu.Module.Resident); 4 blocks an SM (spac) against 5 (spac-b5: 48 registers, the largest shared memory carveout)
start=$(date +%s)
tar -xzf bin/c17/b.tgz -C bin
S=bin/gpu/spac; B=bin/gpu/spac-b5; M=bin/c17/m
R=$OUT/r; mkdir -p $R /tmp/g
timeout 30 bin/gpu/gpu.test -test.run "TestResident|TestCapture" -test.v > $R/gpu-test.log 2>&1; echo "gpu tests rc=$?"; grep -E "^(---|ok|FAIL)|resident" $R/gpu-test.log | head
for tb in traversal traversal-b5; do
timeout 60 bin/gpu/$tb.test -test.run "TestAdaptiveOnDevice|TestAdaptiveConformance|TestOneBlockLongSearches|TestDeviceBodies" -test.timeout 55s > $R/test-$tb.log 2>&1; echo "$tb tests rc=$? +$(( $(date +%s) - start ))s"
grep -E "^--- FAIL|^    --- FAIL" $R/test-$tb.log | head -5
done
while read -r name gen; do
  l=$((start + 540 - $(date +%s))); [ $l -gt 30 ] || break
  in=$gen
  case $gen in gen:*) in=/tmp/g/$name.mtx; [ -f $in ] || timeout 90 $S gen ${gen#gen:} -o $in > /dev/null 2>&1;; esac
  for i in 1 2; do
    timeout 40 $S bfs $in --gpu --strategy do-beamer,edge-list-block,adaptive --roots 4 --seed 3 --format csv > $R/a$i-$name.csv 2> $R/a$i-$name.err
    timeout 40 $B bfs $in --gpu --strategy do-beamer,edge-list-block,adaptive --roots 4 --seed 3 --format csv > $R/b$i-$name.csv 2> $R/b$i-$name.err
  done
  echo "$name rc=$? +$(( $(date +%s) - start ))s"
done <<LIST
kron23 kron:scale=23
kron22 kron:scale=22,seed=5
in2004-30 gen:in-2004 --scale 0.3 --seed 7
web500k gen:web:n=500000 --seed 7
kron20-skew kron:scale=20,ef=24,a=0.6,b=0.15,c=0.15
stencil100 gen:stencil3d:nx=100,ny=100,nz=100 --seed 7
web2m gen:web:n=2000000,deg=10 --seed 7
copter2 $M/copter2.graph.gz
er1m gen:er:n=1000000,deg=8 --seed 7
rmat20 gen:rmat:scale=20,ef=8,a=0.45,b=0.2,c=0.2 --seed 7
road-wide road:nx=1500,ny=700,extra=0.2
LIST
echo "elapsed $(( $(date +%s) - start ))"
cd $OUT && tar -czf r.tgz r && rm -rf r
