#!/usr/bin/env bash
# CI for clonecopy-compare (docs/build-compare.md): runs it once on a copy of samples/Repository, one build
# each way, and checks that the report, the JSON and the chart are written and agree with each other, that
# the outputs of both ways matched, and that the repository was left as it was. Ends with one line:
# "build-compare: passed" or "build-compare: FAILED <what>".
#
#   bash scripts/check-build-compare.sh
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work="$repo/artifacts/check-build-compare"
fail() { echo "build-compare: FAILED $*"; exit 1; }

rm -rf "$work"
mkdir -p "$work/samples" "$work/artifacts"
# The sample's NuGet.config points at ../../artifacts/packages: the copy keeps that layout.
cp -r samples/Repository "$work/samples/"
find "$work/samples" -depth -type d \( -name bin -o -name obj \) -exec rm -rf {} +
ln -s "$repo/artifacts/packages" "$work/artifacts/packages"
export NUGET_PACKAGES="$work/nuget-packages"   # this checkout's CloneCopy 1.0.0, never one cached from elsewhere
state() { (cd "$work/samples" && find . -type f -print0 | sort -z | xargs -0 sha256sum) }
before=$(state)

out="$work/report"
CI=true bash scripts/build-compare.sh "$work/samples/Repository/Sample.slnx" --runs 1 --output "$out" > "$work/stdout.md" 2> "$work/stderr.log"
code=$?
cat "$work/stderr.log"
((code == 0)) || fail "clonecopy-compare exited with $code (its message is above)"

[[ "$(state)" == "$before" ]] || fail "the sample repository was not left as it was"
for f in report.md results.json builds.svg; do [[ -s "$out/$f" ]] || fail "$out/$f was not written"; done
cmp -s "$work/stdout.md" "$out/report.md" || fail "the report printed differs from report.md"

json="$out/results.json"
builds=$(jq '.builds | length' "$json")
((builds == 4)) || fail "results.json has $builds builds, not 2 warm-ups and 1 timed build each way"
for way in cloneCopy msBuildCopy; do
  title=$([[ $way == cloneCopy ]] && echo "CloneCopy" || echo "MSBuild's Copy")
  median=$(jq -r ".summary.$way.medianSeconds * 100 | round / 100 | tostring" "$json")
  printf -v median '%.2f' "$median"
  grep -qF "| $title | $median s |" "$out/report.md" || fail "report.md does not show $title's median $median s from results.json"
  in_svg=$(printf '%s' "$title" | sed "s/'/\\&apos;/g")   # SVG text escapes the apostrophe
  grep -qF "$in_svg (median $median s)" "$out/builds.svg" || fail "builds.svg does not show $title's median $median s"
done
cloned=$(jq '[.builds[] | select(.way == "clonecopy" and (.warmUp | not))][-1].copies | .cloned + .copied' "$json")
projects=$(jq '[.builds[] | select(.way == "clonecopy" and (.warmUp | not))][-1].copies.projects' "$json")
((projects == 3)) || fail "results.json counts $projects CloneCopy summary lines, the sample has 3 projects"
((cloned > 0)) || fail "CloneCopy's summary lines counted no file cloned or copied"
jq -e '.cloneCopySource | startswith("the repository")' "$json" >/dev/null || fail "the sample's own CloneCopy was not recognised: $(jq -r .cloneCopySource "$json")"
jq -e '.outputs.same' "$json" >/dev/null || fail "the outputs differ: $(jq -c .outputs.differences "$json")"
grep -qF "**Same outputs:**" "$out/report.md" || fail "report.md does not say the outputs matched"
echo "build-compare: passed"
