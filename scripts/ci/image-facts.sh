#!/usr/bin/env bash
# What the hosted image a Linux or macOS job runs on has, printed as the job's first step (azure-pipelines.yml,
# .github/workflows/ci.yml; the Windows jobs print theirs in scripts/windows/new-refs-volume.ps1), so that a first run's
# log says which image it met: the OS and kernel, processors and memory, bash, the .NET SDK global.json selects and those
# installed, and the tools the later steps call (jq, and on Linux the Wine the wine lane would install, on macOS the disk).
# For the log only: nothing is checked, and a missing tool prints "not found" (the step that needs it fails on it).
# Written for bash 3.2 (macOS's /bin/bash) and both GNU and BSD tools.
#
#   bash scripts/ci/image-facts.sh
set -u
cd "$(dirname "$0")/../.."

fact() {
  local what=$1 value
  shift
  value=$("$@" 2>/dev/null | tr '\n' ';' | sed 's/;$//; s/;/; /g')
  printf '%-28s %s\n' "$what:" "${value:-not found}"
}
first_line() { "$@" 2>/dev/null | head -1; }

case "$(uname -s)" in
  Linux)
    fact "OS" sh -c '. /etc/os-release && echo "$PRETTY_NAME"'
    fact "kernel" uname -r
    fact "processors" nproc
    fact "memory" sh -c "awk '/^MemTotal/ { printf \"%.1f GiB\", \$2 / 1048576 }' /proc/meminfo"
    fact "loop devices" sh -c 'test -e /dev/loop-control && echo present'
    fact "FUSE" sh -c 'test -e /dev/fuse && echo present'
    # The wine lane installs wine64 from the distribution when Wine is missing (scripts/wine-lane.sh): the version apt
    # would install is the one the lane meets.
    fact "Wine installed" first_line wine --version
    fact "Wine apt would install" sh -c "apt-cache policy wine64 2>/dev/null | awk '/Candidate:/ { print \$2 }'"
    ;;
  Darwin)
    fact "OS" sh -c 'echo "$(sw_vers -productName) $(sw_vers -productVersion) ($(sw_vers -buildVersion))"'
    fact "kernel" uname -r
    fact "architecture" uname -m
    fact "processors" sysctl -n hw.ncpu
    fact "memory" sh -c "sysctl -n hw.memsize | awk '{ printf \"%.1f GiB\", \$1 / 1073741824 }'"
    fact "temporary folder's disk" sh -c 'df "${TMPDIR:-/tmp}" | awk "NR == 2 { print \$NF }"'
    ;;
esac
fact "bash" first_line bash --version
fact ".NET SDK (global.json)" dotnet --version
fact ".NET SDKs installed" sh -c "dotnet --list-sdks | awk '{ print \$1 }'"
fact "the SDK's MSBuild" sh -c 'dotnet msbuild -version -nologo | tail -1'
fact "jq" jq --version
fact "PowerShell" pwsh -NoLogo -NoProfile -Command '$PSVersionTable.PSVersion.ToString()'
exit 0
