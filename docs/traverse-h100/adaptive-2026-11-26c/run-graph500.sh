#!/usr/bin/env bash
# issue 17, final build: the whole traversal test binary; Graph500 GTEPS of do-beamer and adaptive on Kronecker 22-24, 64 validated roots
start=$(date +%s)
tar -xzf bin/c17/b.tgz -C bin
S=bin/gpu/spac
R=$OUT/r; mkdir -p $R
timeout 150 bin/gpu/traversal.test -test.timeout 145s > $R/full-test.txt 2>&1; echo "full test rc=$? +$(( $(date +%s) - start ))s"
grep -E "^(--- FAIL|FAIL|ok|PASS)" $R/full-test.txt | head; tail -2 $R/full-test.txt
for s in 22 23 24; do
  l=$((start + 560 - $(date +%s))); [ $l -gt 40 ] || break
  timeout $((l-10)) $S bfs kron:scale=$s --gpu --strategy do-beamer,adaptive --roots 64 --format csv > $R/g500-$s.csv 2> $R/g500-$s.err
  echo "kron$s rc=$? +$(( $(date +%s) - start ))s"; cut -d, -f9,11,12,16 $R/g500-$s.csv
done
cd $OUT && tar -czf r.tgz r && rm -rf r
