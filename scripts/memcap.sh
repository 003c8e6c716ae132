#!/usr/bin/env bash
# Runs a command with a hard memory limit: the command alone in a memory
# cgroup of its own (cgroup v2 memory.max, or v1 memory.limit_in_bytes),
# which the kernel's OOM killer enforces on its resident memory; the cgroup
# is removed when the command exits, whose exit status it passes on (137:
# killed at the limit). For the scale benchmark (scripts/mpi-scale.sh
# HARDCAP): under mpirun every rank gets its own limit. Needs a writable
# cgroup file system (root on a machine that delegates it); says so and
# exits 2 otherwise.
# Usage: scripts/memcap.sh MIB COMMAND [ARG...]
set -uo pipefail
if [ $# -lt 2 ] || ! [[ $1 =~ ^[0-9]+$ ]] || [ "$1" -lt 1 ]; then
  echo "usage: memcap.sh MIB COMMAND [ARG...]   (MIB: the limit in MiB, at least 1)" >&2
  exit 2
fi
mib=$1
shift
bytes=$((mib * 1024 * 1024))
name=spac-memcap-$$
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then # v2
  dir=/sys/fs/cgroup/$name limit=memory.max swap=memory.swap.max
else # v1
  dir=/sys/fs/cgroup/memory/$name limit=memory.limit_in_bytes swap=memory.memsw.limit_in_bytes
fi
if ! mkdir "$dir" 2>/dev/null || ! echo "$bytes" >"$dir/$limit" 2>/dev/null; then
  rmdir "$dir" 2>/dev/null
  echo "memcap: cannot make a memory cgroup at $dir (needs root and a writable cgroup file system)" >&2
  exit 2
fi
echo "$bytes" >"$dir/$swap" 2>/dev/null || true # no swapping past the limit, where the kernel counts swap
trap 'rmdir "$dir" 2>/dev/null' EXIT
# the child joins the cgroup before it runs the command
bash -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' memcap "$dir" "$@"
rc=$?
[ $rc = 137 ] && echo "memcap: $1 was killed at the limit of $mib MiB" >&2
exit $rc
