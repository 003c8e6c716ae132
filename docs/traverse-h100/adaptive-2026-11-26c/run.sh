#!/usr/bin/env bash
# issue 17, final: do-beamer's heavy pulls and pushes of hubs yielded to ad_heavy too (default against --own-kernel 0), then every strategy on the 22 graphs of run48
start=$(date +%s)
tar -xzf bin/c17/b.tgz -C bin
S=bin/gpu/spac; M=bin/c17/m
R=$OUT/r; mkdir -p $R /tmp/g
timeout 60 bin/gpu/traversal.test -test.run "TestAdaptiveOnDevice|TestAdaptiveConformance|TestOneBlockLongSearches|TestDeviceBodies" -test.v -test.timeout 55s > $R/test.log 2>&1; echo "tests rc=$? +$(( $(date +%s) - start ))s"
grep -E "^--- |^    --- FAIL|adaptive_cuda_test.go:7[0-9][0-9]" $R/test.log | head -12
while read -r name gen; do
  in=$gen
  case $gen in gen:*) in=/tmp/g/$name.mtx; [ -f $in ] || timeout 60 $S gen ${gen#gen:} -o $in > /dev/null 2>&1;; esac
  timeout 60 $S bfs $in --gpu --strategy do-beamer,adaptive --roots 16 --no-validate --format csv > $R/a-$name.csv 2> $R/a-$name.err
  timeout 60 $S bfs $in --gpu --strategy adaptive --own-kernel 0 --roots 16 --no-validate --format csv > $R/b-$name.csv 2> $R/b-$name.err
  echo "$name +$(( $(date +%s) - start ))s"
done <<LIST
kron23-s1 kron:scale=23
kron22-s1 kron:scale=22
kron24-s1 kron:scale=24
kron20-skew kron:scale=20,ef=24,a=0.6,b=0.15,c=0.15
web2m gen:web:n=2000000,deg=10 --seed 7
LIST
ALL=thread,topo,edge,edge-chunk,lb,lb-cull,twc,ns,hp,scan,pull,persistent,persistent-twc,edge-list-atomic,edge-list-warp,edge-list-block,rev-edge-list-atomic,rev-edge-list-warp,rev-edge-list-block,push-atomic,push-warp,push-block,pull-atomic,pull-warp,pull-block,vw-push-2,vw-push-4,vw-push-8,vw-push-16,vw-push-32,do-beamer,adaptive,adaptive-host
while read -r name budget gen; do
  l=$((start + 560 - $(date +%s))); [ $l -gt 25 ] || break
  in=$gen
  case $gen in gen:*) in=/tmp/g/$name.mtx; [ -f $in ] || timeout 60 $S gen ${gen#gen:} -o $in > /dev/null 2>&1;; esac
  l=$((start + 560 - $(date +%s)))
  timeout $((l-10 < 60 ? l-10 : 60)) $S bfs $in --gpu --strategy $ALL --roots 4 --budget $budget --seed 3 --format csv > $R/all-$name.csv 2> $R/all-$name.err
  echo "$name rc=$? +$(( $(date +%s) - start ))s"
  done <<LIST
pores_1 0.5 $M/pores_1.mtx.gz
wiki-vote 0.5 $M/wiki-Vote.txt.gz
kron16-ef64 0.5 kron:scale=16,ef=64,a=0.5,b=0.2,c=0.2
kron20-skew 0.5 kron:scale=20,ef=24,a=0.6,b=0.15,c=0.15
rajat01 0.5 $M/rajat01.mtx.gz
rajat01-sym 0.5 $M/rajat01.mtx.gz --undirected
copter2 0.5 $M/copter2.graph.gz
kron19-ab 0.5 kron:scale=19,ef=8,a=0.45,b=0.15,c=0.15
road-shuf2 0.5 road:nx=900,ny=300,extra=0.3,shuffle=true
road-wide 0.5 road:nx=1500,ny=700,extra=0.2
kron23 0.5 kron:scale=23
kron22 0.3 kron:scale=22,seed=5
road3k 0.3 road:nx=3000,ny=3000,extra=0.3,seed=4
road-long 0.3 road:nx=200,ny=6000,extra=0.1,seed=6
stencil100 0.3 gen:stencil3d:nx=100,ny=100,nz=100 --seed 7
er1m 0.3 gen:er:n=1000000,deg=8 --seed 7
web500k 0.3 gen:web:n=500000 --seed 7
in2004-30 0.3 gen:in-2004 --scale 0.3 --seed 7
circuit1m 0.3 gen:circuit:n=1000000,deg=5 --seed 7
rmat20 0.3 gen:rmat:scale=20,ef=8,a=0.45,b=0.2,c=0.2 --seed 7
web2m 0.3 gen:web:n=2000000,deg=10 --seed 7
ba300k 0.3 gen:ba:n=300000,m=4 --seed 7
LIST
echo "elapsed $(( $(date +%s) - start ))"
cd $OUT && tar -czf r.tgz r && rm -rf r
