#!/usr/bin/env bash
# issue 17: the retrained default model (23 nodes, with the sweeps of larger graphs): tests, the 11 held-out graphs and 9 graphs of families and sizes no sweep saw, every strategy
start=$(date +%s)
tar -xzf bin/c17/b.tgz -C bin
S=bin/gpu/spac; M=bin/c17/m
R=$OUT/r; mkdir -p $R
timeout 150 bin/gpu/traversal.test -test.run "TestAdaptiveOnDevice|TestSweepSmallGraphs|TestAdaptiveConformance|TestDOBeamer|TestCountersMatch|TestDeviceBodies" -test.v -test.timeout 145s > $R/trav-test.log 2>&1; echo "tests rc=$?"
grep -E "^--- (FAIL|PASS): Test|^    --- FAIL" $R/trav-test.log | head -40
mkdir -p /tmp/g
ALL=thread,topo,edge,edge-chunk,lb,lb-cull,twc,ns,hp,scan,pull,persistent,persistent-twc,edge-list-atomic,edge-list-warp,edge-list-block,rev-edge-list-atomic,rev-edge-list-warp,rev-edge-list-block,push-atomic,push-warp,push-block,pull-atomic,pull-warp,pull-block,vw-push-2,vw-push-4,vw-push-8,vw-push-16,vw-push-32,do-beamer,adaptive,adaptive-host
LIST="pores_1 $M/pores_1.mtx.gz
wiki-vote $M/wiki-Vote.txt.gz
kron16-ef64 kron:scale=16,ef=64,a=0.5,b=0.2,c=0.2
kron20-skew kron:scale=20,ef=24,a=0.6,b=0.15,c=0.15
rajat01 $M/rajat01.mtx.gz
rajat01-sym $M/rajat01.mtx.gz --undirected
copter2 $M/copter2.graph.gz
kron19-ab kron:scale=19,ef=8,a=0.45,b=0.15,c=0.15
road-shuf2 road:nx=900,ny=300,extra=0.3,shuffle=true
road-wide road:nx=1500,ny=700,extra=0.2
kron23 kron:scale=23"
while read -r name args; do
  l=$((start + 250 - $(date +%s))); [ $l -gt 25 ] || break
  timeout $((l-15 < 50 ? l-15 : 50)) $S bfs $args --gpu --strategy $ALL --roots 4 --budget 0.5 --format csv > $R/held-$name.csv 2> $R/held-$name.err
  echo "$name rc=$?"
done <<< "$LIST"
while read -r name gen; do
  l=$((start + 500 - $(date +%s))); [ $l -gt 30 ] || break
  in=$gen
  case $gen in gen:*) in=/tmp/g/$name.mtx; timeout 60 $S gen ${gen#gen:} --seed 7 -o $in > /dev/null 2> $R/gen-$name.err || { echo "$name gen failed"; continue; };; esac
  l=$((start + 500 - $(date +%s)))
  timeout $((l-10 < 70 ? l-10 : 70)) $S bfs $in --gpu --strategy $ALL --roots 4 --budget 0.3 --seed 3 --format csv > $R/new-$name.csv 2> $R/new-$name.err
  echo "$name rc=$? +$(( $(date +%s) - start ))s"
done <<LIST
kron22 kron:scale=22,seed=5
road3k road:nx=3000,ny=3000,extra=0.3,seed=4
road-long road:nx=200,ny=6000,extra=0.1,seed=6
stencil100 gen:stencil3d:nx=100,ny=100,nz=100
er1m gen:er:n=1000000,deg=8
web500k gen:web:n=500000
circuit1m gen:circuit:n=1000000,deg=5
ba300k gen:ba:n=300000,m=4
rmat20 gen:rmat:scale=20,ef=8,a=0.45,b=0.2,c=0.2
LIST
echo "elapsed $(( $(date +%s) - start ))"
cd $OUT && tar -czf r.tgz r && rm -rf r
