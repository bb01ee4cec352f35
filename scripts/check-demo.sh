#!/usr/bin/env bash
# CI for the README's main command: runs scripts/demo.sh and checks that it shows what the README says it
# shows: a summary line with clones for each of the three projects, the publish line, the extent proof
# for every file it names, and the app's output. Prints "demo: passed" or what was missing.
set -uo pipefail
cd "$(dirname "$0")/.."

out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! bash scripts/demo.sh >"$out" 2>&1; then
  cat "$out"
  echo "demo: scripts/demo.sh failed"
  exit 1
fi
cat "$out"

missing=()
for project in LibB LibA App; do
  grep -qE "^  CloneCopy: [1-9][0-9]* files? cloned \([0-9.]+ [KMG]?B not written\).* \[$project\]$" "$out" || missing+=("the summary line of $project")
done
grep -qE "^  CloneCopy \(Publish\): [1-9][0-9]* files? cloned .* \[App\]$" "$out" || missing+=("the publish line")
proofs=$(grep -c ": shared extents (a clone)$" "$out")
((proofs == 4)) || missing+=("4 extent proofs (saw $proofs)")
grep -q "no shared extents" "$out" && missing+=("no file copied instead of cloned")
grep -qx '{"hello":"CloneCopy"}' "$out" || missing+=("the app's output")

if ((${#missing[@]})); then
  printf 'demo: missing %s\n' "${missing[@]}"
  exit 1
fi
echo "demo: passed"
