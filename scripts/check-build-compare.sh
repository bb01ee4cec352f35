#!/usr/bin/env bash
# CI for clonecopy-compare (docs/build-compare.md), as a user gets it: packs the tool, checks that its package is
# at most 25 MB and installs (dotnet tool install --tool-path, from a folder feed) in at most 80 MB, that dnx runs
# it, then runs the installed tool on a copy of samples/Repository, two builds each way, and checks that the
# report, the JSON and the chart are written and agree with each other, that the outputs of both ways matched,
# and that the repository was left as it was. Ends with one line: "build-compare: passed" or
# "build-compare: FAILED <what>".
#
#   bash scripts/check-build-compare.sh
set -uo pipefail
# A native jq.exe (the Windows agents' Git Bash) ends its lines with CR, which $(...) keeps: "6\r" is no number.
jq() { command jq "$@" | tr -d '\r'; }
cd "$(dirname "$0")/.."
repo=$(pwd)
work="$repo/artifacts/check-build-compare"
fail() { echo "build-compare: FAILED $*"; exit 1; }
# sha256sum (Linux, Git Bash on Windows) or shasum (macOS).
if command -v sha256sum >/dev/null; then hash=(sha256sum); else hash=(shasum -a 256); fi
source scripts/lib/packages.sh
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

rm -rf "$work"
mkdir -p "$work/samples" "$work/artifacts"
export NUGET_PACKAGES="$work/nuget-packages"   # this checkout's packages, never ones cached from elsewhere
export DOTNET_CLI_TELEMETRY_OPTOUT=1

# The package, its size, and its size installed: what a user downloads and keeps.
pack_clonecopy "$repo/artifacts/packages" -clp:ErrorsOnly || fail "dotnet pack src/CloneCopy failed"
version=$(package_version "$repo/artifacts/packages" CloneCopy) || fail "no CloneCopy package"
dotnet pack src/CloneCopy.BuildCompare -c Release -o "$work/feed" -nologo -clp:ErrorsOnly || fail "dotnet pack src/CloneCopy.BuildCompare failed"
tool_version=$(package_version "$work/feed" CloneCopy.BuildCompare) || fail "no CloneCopy.BuildCompare package"
[[ "$tool_version" == "$version" ]] || fail "the tool packed as $tool_version, CloneCopy as $version: one commit, one version"
package="$work/feed/CloneCopy.BuildCompare.$version.nupkg"
package_bytes=$(wc -c < "$package" | tr -d ' ')
((package_bytes <= 25 * 1048576)) || fail "the tool's package is $(mb "$package_bytes") MB, more than 25 MB"
dotnet tool install CloneCopy.BuildCompare --version "$version" --tool-path "$work/tool" --add-source "$work/feed" > "$work/install.log" 2>&1 \
  || { cat "$work/install.log"; fail "dotnet tool install from the folder feed failed"; }
installed_bytes=$(( $(du -sk "$work/tool" | cut -f1) * 1024 ))
((installed_bytes <= 80 * 1048576)) || fail "the tool takes $(mb "$installed_bytes") MB installed, more than 80 MB"
echo "build-compare: package $(mb "$package_bytes") MB, installed $(mb "$installed_bytes") MB (du of the tool path)"
dotnet dnx CloneCopy.BuildCompare --version "$version" --add-source "$work/feed" --yes -- --help > "$work/dnx.log" 2>&1 \
  || { cat "$work/dnx.log"; fail "dotnet dnx CloneCopy.BuildCompare did not run the tool"; }
grep -q -- "--runs" "$work/dnx.log" || { cat "$work/dnx.log"; fail "dotnet dnx did not show the tool's help"; }

# The sample's NuGet.config points at ../../artifacts/packages: the copy keeps that layout; its global.json pins
# the version packed.
copy_sample Repository "$work/samples/Repository" ../../artifacts/packages "$version" || fail "copying the sample"
find "$work/samples" -depth -type d \( -name bin -o -name obj \) -exec rm -rf {} +
ln -s "$repo/artifacts/packages" "$work/artifacts/packages"
state() { (cd "$work/samples" && find . -type f -print0 | sort -z | xargs -0 "${hash[@]}") }
before=$(state)

out="$work/report"
CI=true "$work/tool/clonecopy-compare" "$work/samples/Repository/Sample.slnx" --runs 2 --output "$out" > "$work/stdout.md" 2> "$work/stderr.log"
code=$?
cat "$work/stderr.log"
((code == 0)) || { tail -20 "$work/stdout.md"; fail "clonecopy-compare exited with $code (its message is above)"; }

[[ "$(state)" == "$before" ]] || fail "the sample repository was not left as it was"
for f in report.md results.json builds.svg; do [[ -s "$out/$f" ]] || fail "$out/$f was not written"; done
grep -qF "$(grep -m1 -F '**Build time:**' "$out/report.md")" "$work/stdout.md" || fail "the report printed is not report.md"

json="$out/results.json"
builds=$(jq '.builds | length' "$json")
((builds == 6)) || fail "results.json has $builds builds, not 2 warm-ups and 2 timed builds each way"
for way in cloneCopy msBuildCopy; do
  title=$([[ $way == cloneCopy ]] && echo "CloneCopy" || echo "MSBuild's Copy")
  median=$(jq -r ".summary.$way.medianSeconds * 100 | round / 100 | tostring" "$json")
  printf -v median '%.2f' "$median"
  grep -qF "| $title | $median s |" "$out/report.md" || fail "report.md does not show $title's median $median s from results.json"
  in_svg=$(printf '%s' "$title" | sed "s/'/\\&apos;/g")   # SVG text escapes the apostrophe
  grep -qF "$in_svg (median $median s," "$out/builds.svg" || fail "builds.svg does not show $title's median $median s"
done
cloned=$(jq '[.builds[] | select(.way == "clonecopy" and (.warmUp | not))][-1].copies | .cloned + .copied' "$json")
projects=$(jq '[.builds[] | select(.way == "clonecopy" and (.warmUp | not))][-1].copies.projects' "$json")
((projects == 3)) || fail "results.json counts $projects CloneCopy summary lines, the sample has 3 projects"
((cloned > 0)) || fail "CloneCopy's summary lines counted no file cloned or copied"
jq -e '.cloneCopySource | startswith("the repository")' "$json" >/dev/null || fail "the sample's own CloneCopy was not recognised: $(jq -r .cloneCopySource "$json")"
jq -e '.outputs.same' "$json" >/dev/null || fail "the outputs differ: $(jq -c .outputs.differences "$json")"
grep -qF "**Same outputs:**" "$out/report.md" || fail "report.md does not say the outputs matched"
# The verdict: one sentence, the same in the report, the JSON and the chart.
sentence=$(jq -r '.summary.verdict.sentence' "$json")
jq -e '.summary.verdict.kind | IN("notCausedByCloneCopy", "withinNoise", "tooFewBuilds", "difference")' "$json" >/dev/null || fail "results.json has no verdict"
grep -qF "**Build time:** $sentence" "$out/report.md" || fail "report.md does not give the verdict of results.json: $sentence"
grep -qF "$(printf '%s' "$sentence" | cut -c1-40 | sed "s/'/\&apos;/g")" "$out/builds.svg" || fail "builds.svg does not give the verdict"
grep -qF "**What CloneCopy can change:** the Copy task took" "$out/report.md" || fail "report.md does not lead with the Copy task's time"
echo "build-compare: passed"
