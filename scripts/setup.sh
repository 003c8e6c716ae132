#!/usr/bin/env bash
# Installs what building and testing need on a Debian machine with Go:
# gcc for cgo and METIS 5 (libmetis-dev). Idempotent: does nothing when
# everything is there already.
set -euo pipefail

need=()
command -v gcc >/dev/null 2>&1 || need+=(gcc)
dpkg -s libmetis-dev >/dev/null 2>&1 || need+=(libmetis-dev)
command -v go >/dev/null 2>&1 || { echo "setup: Go is not on PATH; install Go 1.22 or newer first (https://go.dev/dl/)" >&2; exit 1; }

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install: ${need[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${need[@]}" >/dev/null
