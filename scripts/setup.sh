#!/usr/bin/env bash
# Installs what the tests and the demo need on a fresh Debian/Ubuntu machine: the tools that make real
# reflink filesystems (xfsprogs, btrfs-progs, e2fsprogs) and the ones the tests read extents with
# (filefrag from e2fsprogs, xfs_io from xfsprogs), jq for the build-compare check, strace for the
# system-call budget tests and fuse-overlayfs for the container filesystem tests. The .NET SDK is expected on PATH.
set -euo pipefail

need=()
command -v mkfs.xfs >/dev/null 2>&1 || need+=(xfsprogs)
command -v mkfs.btrfs >/dev/null 2>&1 || need+=(btrfs-progs)
command -v mkfs.ext4 >/dev/null 2>&1 || need+=(e2fsprogs)
command -v filefrag >/dev/null 2>&1 || need+=(e2fsprogs)
command -v jq >/dev/null 2>&1 || need+=(jq)   # scripts/check-build-compare.sh reads the tool's JSON with it
command -v unzip >/dev/null 2>&1 || need+=(unzip)   # scripts/check-release.sh opens the packed packages with it
command -v strace >/dev/null 2>&1 || need+=(strace) # the system-call budget tests count calls per file with it
command -v fuse-overlayfs >/dev/null 2>&1 || need+=(fuse-overlayfs) # ContainerFilesystemsTests: a rootless container's filesystem
# scripts/check-windows-scripts.sh reads the CI files (azure-pipelines.yml, .github/workflows/ci.yml) with PyYAML.
python3 -c 'import yaml' >/dev/null 2>&1 || /usr/bin/python3 -c 'import yaml' >/dev/null 2>&1 || need+=(python3-yaml)

if ((${#need[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing ${need[*]}; run as root (or install them) to make loop-mounted test filesystems" >&2
    exit 0
  fi
  echo "setup: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

command -v dotnet >/dev/null 2>&1 || { echo "setup: the .NET SDK (dotnet) is required" >&2; exit 1; }
