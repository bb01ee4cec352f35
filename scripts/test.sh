#!/usr/bin/env bash
# Runs every test: builds the solution (task, tests, benchmarks, samples' generator) and runs the xunit
# suite, which loop-mounts reflink XFS, btrfs and ext4 images when it runs as root.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
dotnet build CloneCopy.slnx -c Release -nologo -clp:ErrorsOnly

log=$(mktemp)
set +e
dotnet test CloneCopy.slnx -c Release --no-build -nologo 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# One plain closing line a CI reader understands, from the runner's own summary.
summary=$(grep -E '(Passed|Failed)!' "$log" | tail -1 || true)
passed=$(sed -nE 's/.*Passed: +([0-9]+).*/\1/p' <<<"$summary")
failed=$(sed -nE 's/.*Failed: +([0-9]+).*/\1/p' <<<"$summary")
skipped=$(sed -nE 's/.*Skipped: +([0-9]+).*/\1/p' <<<"$summary")
rm -f "$log"
if [[ -n "$passed" ]]; then
  echo "${passed} passed, ${failed:-0} failed, ${skipped:-0} skipped"
fi
exit "$status"
