#!/usr/bin/env bash
# Reruns the failures of issue 23 (bad inputs, unusual output paths,
# interrupted runs, nonsense flags) against a spac binary and prints one
# markdown row per case: what was done, exit status, what the path or the
# process looks like afterwards. Run as root for the device cases (it makes
# its own device nodes; the system's /dev/null is never written to as a
# target).
#
# Usage: scripts/robustness.sh [BIN]        (default bin/spac)
# Env:   SIGTRIES (12): partitions interrupted per signal
set -uo pipefail
bin=$(realpath "${1:-bin/spac}")
tries=${SIGTRIES:-12}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

row() { printf '| %s | %s | %s |\n' "$1" "$2" "$3"; }
# rss CMD...: runs CMD, sets rc, kb (max RSS) and secs, keeps its stderr in err.
rss() {
  /usr/bin/time -f '%M %e' -o time.out "$@" >out 2>err
  rc=$?
  read -r kb secs < <(tail -1 time.out)
}
first() { head -c 110 err | head -1 | tr '|' '/'; }

"$bin" gen ba:n=25000,m=8 --seed 1 -o g.mtx 2>/dev/null

echo "| case | exit | afterwards |"
echo "|---|---|---|"

# 1. outputs. The device cases write to private copies of /dev/null and
# /dev/full made here (as root): a binary that replaces the device at the
# path, as spac before issue 23 did, must not take the system's with it.
if mknod -m 666 null c 1 3 2>/dev/null && mknod -m 666 full c 1 7 2>/dev/null; then
  "$bin" partition g.mtx --quiet --assignment null >/dev/null 2>err
  row "--assignment NULL (a copy of /dev/null)" $? "$(stat -c %F null)"
  "$bin" partition g.mtx --quiet --assignment full >/dev/null 2>err
  row "--assignment FULL (a copy of /dev/full)" $? "$(stat -c %F full); $(first)"
else
  row "--assignment to a device" - "skipped: making device nodes needs root"
fi
echo old >target.tsv; ln -s target.tsv link.tsv
"$bin" partition g.mtx --quiet -o link.tsv >/dev/null 2>err
row "-o symlink" $? "link.tsv is a $(stat -c %F link.tsv), target $(wc -l <target.tsv) lines"
echo old >secret.tsv; chmod 600 secret.tsv
"$bin" partition g.mtx --quiet -o secret.tsv >/dev/null 2>err
row "-o file of mode 0600" $? "mode $(stat -c %a secret.tsv)"
echo old >h1.tsv; ln h1.tsv h2.tsv
"$bin" partition g.mtx --quiet -o h1.tsv >/dev/null 2>err
row "-o hard link" $? "links $(stat -c %h h1.tsv), other name $(wc -l <h2.tsv) lines"
(umask 077; "$bin" gen er:n=100,deg=3 -o new.mtx 2>/dev/null)
row "gen -o under umask 077" $? "mode $(stat -c %a new.mtx)"
"$bin" partition g.mtx --quiet -o - 2>/dev/null | head -1 >first.out
row "-o -" 0 "stdout starts '$(tr '\t' ' ' <first.out)'; file named -: $(test -e - && echo yes || echo no)"
"$bin" schedule g.mtx --quiet -b 256 -o - 2>/dev/null | head -c 8 >first.out
row "schedule -o -" 0 "stdout starts $(cat first.out)"
start=$(date +%s.%N)
"$bin" partition g.mtx --quiet -o nodir/a.tsv >/dev/null 2>err; rc=$?
row "-o nodir/a.tsv" $rc "after $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5) s: $(first)"
mkdir adir; "$bin" schedule g.mtx --quiet -o adir >/dev/null 2>err
row "schedule -o DIR" $? "$(first)"
echo "old content" >big.mtx
"$bin" gen er:n=3000000,deg=16 -o big.mtx 2>/dev/null & pid=$!
for _ in $(seq 400); do [ "$(find . -maxdepth 1 -name '.big.mtx.spac-tmp*' -size +1M | wc -l)" -gt 0 ] && break; sleep 0.05; done
kill -KILL $pid; wait $pid 2>/dev/null
stale=$(ls -A | grep -c 'big.mtx.spac-tmp')
row "gen -o big.mtx, SIGKILL mid-write" 137 "big.mtx holds '$(head -c 11 big.mtx)', $stale stale temp"
"$bin" gen er:n=100,deg=3 -o big.mtx 2>/dev/null
row "next gen -o big.mtx" $? "stale temps left: $(ls -A | grep -c 'big.mtx.spac-tmp')"
"$bin" schedule g.mtx --quiet -b 256 --npy set >/dev/null 2>&1
sum=$(cat set/* | md5sum | cut -c1-8)
"$bin" gen er:n=400000,deg=12 -o big2.mtx 2>/dev/null
"$bin" schedule big2.mtx --quiet -b 256 --npy set --no-cache >/dev/null 2>&1 & pid=$!
for _ in $(seq 200); do ls -A | grep -q 'set.spac-tmp' && break; sleep 0.05; done
kill -KILL $pid; wait $pid 2>/dev/null
row "--npy set, SIGKILL mid-export" 137 "set unchanged: $([ "$(cat set/* | md5sum | cut -c1-8)" = "$sum" ] && echo yes || echo NO)"

# 2. declared sizes
printf '%%%%MatrixMarket matrix coordinate real general\n1000000000 1000000000 2\n1 1 1\n1000000000 1000000000 2\n' >huge.mtx
rss "$bin" stats huge.mtx
row "stats: 10^9 x 10^9, 2 entries" $rc "${kb} KB max RSS, ${secs} s: $(first)"
printf '%%%%MatrixMarket matrix coordinate real general\n200000000 200000000 2\n1 1 1\n200000000 200000000 2\n' >m2e8.mtx
rss "$bin" stats m2e8.mtx
row "stats: 2x10^8 x 2x10^8, 2 entries" $rc "${kb} KB max RSS, ${secs} s: $(first)"
printf '0 1\n1 1000000000\n' >huge.txt
rss "$bin" stats huge.txt
row "stats: edge list with id 10^9" $rc "${kb} KB max RSS, ${secs} s: $(first)"
printf '1000000000 1\n2\n1\n' >huge.graph
rss "$bin" stats huge.graph
row "stats: METIS header n = 10^9" $rc "${kb} KB max RSS, ${secs} s: $(first)"

# 3. long lines (128 MiB here; the 1 GiB figures are in the closing note)
head -c 134217728 /dev/zero | tr '\0' '0' | gzip -1 >line.gz
for f in mm edgelist; do
  rss "$bin" stats line.gz --input-format $f --quiet
  row "stats --input-format $f: 128 MiB line, gzipped" $rc "${kb} KB max RSS, ${secs} s: $(first)"
  /usr/bin/time -f '%M %e' -o time.out sh -c "zcat line.gz | '$bin' stats - --input-format $f --quiet >out 2>err"; rc=$?
  read -r kb secs < <(tail -1 time.out)
  row "stats - --input-format $f: the same from a pipe" $rc "${kb} KB max RSS, ${secs} s: $(first)"
done

# 4. signals during a partition
for sig in TERM INT; do
  codes=""
  for i in $(seq 0 $((tries - 1))); do
    "$bin" partition g.mtx --model graph --as-stored -b 1024 --quiet >/dev/null 2>err & pid=$!
    sleep "$(awk "BEGIN{print (50+$i*100)/1000}")"; kill -$sig $pid; wait $pid; rc=$?
    codes+="$rc:$(grep -c . err) "
  done
  row "SIG$sig at 50..$((50 + (tries - 1) * 100)) ms, $tries runs" "-" "$(echo "$codes" | tr ' ' '\n' | grep . | sort | uniq -c | awk 'NF {printf "%s x exit %s (%s stderr lines); ", $1, substr($2,1,index($2,":")-1), substr($2,index($2,":")+1)}')$(tail -1 err)"
done

# 5. flags
for args in "partition g.mtx --block-size 0" "partition g.mtx --parts 0" "partition g.mtx --imbalance NaN" \
  "schedule g.mtx -b 100000" "schedule g.mtx --smem-budget 16"; do
  "$bin" $args --quiet >/dev/null 2>err
  row "$args" $? "$(first)"
done
"$bin" >/dev/null 2>err
row "spac (no arguments)" $? "$(tail -1 err)"
"$bin" --version >out 2>&1
row "spac --version" $? "$(head -1 out)"

# 6. smaller
printf 'hello world\n' >x.dat
"$bin" stats x.dat >/dev/null 2>err
row "stats of an unknown format" $? "$(first)"
printf '0 1\n1 2\n2 0\n' | "$bin" stats - >out 2>err
row "edge list on stdin" $? "$(head -1 out | head -c 110)"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n1 1 2\n2 2 1\n' >dup.mtx
"$bin" stats dup.mtx >out 2>err
row "duplicate entries" $? "$(grep -h -m1 -i duplicate err out | head -c 110)"
"$bin" gen nosuch -o x.mtx >/dev/null 2>err
row "gen nosuch" $? "$(first)"
"$bin" gen stencil2d:nx=100,ny=100 -o lap.mtx 2>/dev/null
"$bin" cg lap.mtx --max-iters 20 --quiet >/dev/null 2>err
row "cg --max-iters 20 (no convergence)" $? "$(tail -1 err | head -c 110)"
