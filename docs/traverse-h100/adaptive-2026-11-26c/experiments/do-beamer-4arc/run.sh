#!/usr/bin/env bash
# issue 17: the hand-off to the persistent kernel (--persistent-after 32) and do-beamer's 4-arc push: tests, then the graphs they are for and the others; spac-nods = the same without the 4-arc push
start=$(date +%s)
tar -xzf bin/c17/b.tgz -C bin
S=bin/gpu/spac; N=bin/gpu/spac-nods; M=bin/c17/m
R=$OUT/r; mkdir -p $R /tmp/g
timeout 90 bin/gpu/traversal.test -test.run "TestOneBlockLongSearches|TestAdaptiveOnDevice|TestAdaptiveConformance|TestDeviceBodies|TestDOBeamer" -test.v -test.timeout 85s > $R/test.log 2>&1; echo "tests rc=$? +$(( $(date +%s) - start ))s"
grep -E "^--- (FAIL|PASS)|^    --- (FAIL): |panic|Error" $R/test.log | head -30
ST=persistent,edge-list-atomic,edge-list-block,edge-list-warp,rev-edge-list-atomic,edge-chunk,do-beamer,adaptive
while read -r name gen; do
  l=$((start + 520 - $(date +%s))); [ $l -gt 15 ] || break
  in=$gen
  case $gen in gen:*) in=/tmp/g/$name.mtx; timeout 60 $S gen ${gen#gen:} --seed 7 -o $in > /dev/null 2>&1;; esac
  timeout $((l-5 < 40 ? l-5 : 40)) $S bfs $in --gpu --strategy $ST --roots 4 --budget 0.3 --seed 3 --format csv > $R/h-$name.csv 2> $R/h-$name.err
  a=$?
  timeout 25 $N bfs $in --gpu --strategy do-beamer,adaptive --roots 4 --budget 0.3 --seed 3 --format csv > $R/n-$name.csv 2> $R/n-$name.err
  echo "$name rc=$a/$? +$(( $(date +%s) - start ))s"
done <<LIST
road3k road:nx=3000,ny=3000,extra=0.3,seed=4
stencil100 gen:stencil3d:nx=100,ny=100,nz=100
road-wide road:nx=1500,ny=700,extra=0.2
road-shuf2 road:nx=900,ny=300,extra=0.3,shuffle=true
road-long road:nx=200,ny=6000,extra=0.1,seed=6
copter2 $M/copter2.graph.gz
pores_1 $M/pores_1.mtx.gz
er1m gen:er:n=1000000,deg=8
circuit1m gen:circuit:n=1000000,deg=5
web500k gen:web:n=500000
kron23 kron:scale=23
LIST
echo "elapsed $(( $(date +%s) - start ))"
cd $OUT && tar -czf r.tgz r && rm -rf r
