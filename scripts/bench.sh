#!/usr/bin/env bash
# Runs the benchmarks and the build-time comparison, side by side in one run, and prints the tables
# (also written to artifacts/bench/results.md). Not a test: CI builds the benchmarks but does not run them.
#
#   bash scripts/bench.sh                     # everything: per-file, per-task, 50-project build x 5
#   PROJECTS=20 RUNS=3 bash scripts/bench.sh  # a smaller build comparison
#   ONLY=per-file bash scripts/bench.sh       # one part: per-file | per-task | replace | cold | build
#
# "cold" is the Copy task in fresh MSBuild nodes (scripts/cold-node-bench.sh): the first Copy in a node,
# 20 small calls, 2,000 files, and the sample repository, each through `dotnet msbuild -nodeReuse:false`.
#
# As root it makes its own filesystems (loop-mounted reflink XFS, btrfs, ext4). Elsewhere, point it at
# mounted directories: BENCH_XFS=/mnt/xfs BENCH_BTRFS=... BENCH_EXT4=... (a missing one is left out).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
out="$repo/artifacts/bench"
results="$out/results.md"
PROJECTS=${PROJECTS:-50}
RUNS=${RUNS:-5}
FILES=${FILES:-2000}
mkdir -p "$out"

source scripts/lib/step.sh
step "setting up the machine" "run as root on Debian/Ubuntu, or install xfsprogs, btrfs-progs and e2fsprogs" bash scripts/setup.sh
step "building the benchmarks" "read the errors above; the restore needs NuGet's package source" \
  dotnet build tools/CloneCopy.Benchmarks -c Release -nologo
source scripts/lib/built.sh
bench="dotnet $(built_assembly tools/CloneCopy.Benchmarks)"

source scripts/lib/loop-fs.sh
trap loop_fs_cleanup EXIT

# Each filesystem: the directory given (BENCH_XFS, BENCH_BTRFS, BENCH_EXT4), else, as root, a 6 GiB sparse image
# loop-mounted at artifacts/bench/NAME.
declare -A fs
can_mount=$([[ $(id -u) -eq 0 && -e /dev/loop-control ]] && echo yes || echo no)
for name in xfs btrfs ext4; do
  given=BENCH_${name^^}
  if [[ -n "${!given:-}" ]]; then
    fs[$name]=${!given}
  elif [[ $can_mount == yes ]]; then
    loop_fs "$name" "$out/$name" 6G   # not in $(...): the mount must be recorded in this shell for the trap
    fs[$name]=$out/$name
  fi
done
fsargs() { local a=(); for n in "$@"; do [[ -n "${fs[$n]:-}" ]] && a+=(--fs "$n=${fs[$n]}"); done; echo "${a[@]}"; }

{
  echo "# CloneCopy benchmarks"
  echo
  echo "$(date -u +%Y-%m-%d), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), kernel $(uname -r), $(dotnet --version) SDK; command: \`bash scripts/bench.sh\`"
  echo "Times are medians over interleaved rounds (min–max in brackets); ratios compare medians."
  echo
} >"$results"

if [[ -z "${ONLY:-}" || "${ONLY}" == per-file ]]; then
  echo "## Per file" | tee -a "$results"
  $bench per-file $(fsargs xfs btrfs ext4) | tee -a "$results"
  echo | tee -a "$results"
fi

if [[ -z "${ONLY:-}" || "${ONLY}" == per-task ]]; then
  echo "## Per task: one Copy call, $FILES files" | tee -a "$results"
  $bench per-task --files "$FILES" --rounds 5 $(fsargs xfs btrfs ext4) | tee -a "$results"
  echo | tee -a "$results"
fi

if [[ -z "${ONLY:-}" || "${ONLY}" == replace ]]; then
  echo "## A rebuild that replaces every destination: $FILES files (CloneCopyAtomicReplace's cost)" | tee -a "$results"
  $bench replace --files "$FILES" --rounds "${REPLACE_ROUNDS:-7}" $(fsargs xfs ext4) | tee -a "$results"
  echo | tee -a "$results"
fi

if [[ -z "${ONLY:-}" || "${ONLY}" == cold ]]; then
  cold_dirs=()
  [[ -n "${fs[xfs]:-}" ]] && cold_dirs+=("${fs[xfs]}")
  [[ -n "${fs[ext4]:-}" ]] && cold_dirs+=("${fs[ext4]}")
  RUNS=${COLD_RUNS:-7} bash scripts/cold-node-bench.sh "${cold_dirs[@]}" | tee -a "$results"
  echo | tee -a "$results"
fi

if [[ -z "${ONLY:-}" || "${ONLY}" == build ]]; then
  bash scripts/build-compare.sh "${fs[xfs]:-$out/build}" "$PROJECTS" "$RUNS" | tee -a "$results"
fi

echo "results: $results"
