#!/usr/bin/env bash
# Build-time comparison, through the clonecopy-compare tool (src/CloneCopy.BuildCompare; docs/build-compare.md).
# Packs CloneCopy and builds the tool from this checkout, then either
#
#   bash scripts/build-compare.sh path/to/Your.sln [--runs N] [--output DIR] [-- build arguments]
#       compares clean builds of your own solution or project (nothing in it is changed), or
#   bash scripts/build-compare.sh DIR [PROJECTS=50] [RUNS=5]
#       generates a repository of PROJECTS projects in a reference chain in DIR/build-compare and compares it;
#       it uses CloneCopy itself, or with INJECT=1 never mentions it, and the tool injects it. The report,
#       JSON, chart and logs go to REPORT (default artifacts/build-compare/generated), off DIR, which may be
#       a scratch filesystem that is unmounted afterwards.
#
# The tool's progress goes to stderr; stdout gets only the Markdown report (callers redirect it to a file).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
feed="$repo/artifacts/packages"
source scripts/lib/step.sh
source scripts/lib/packages.sh
step "packing CloneCopy" "read the errors above" pack_clonecopy "$feed" -clp:ErrorsOnly
step "building clonecopy-compare" "read the errors above" dotnet build src/CloneCopy.BuildCompare -c Release -nologo -clp:ErrorsOnly
# The callers of this script put the report on the CI summary page themselves (azure-pipelines.yml): the tool
# is kept from doing it too (it would, seeing TF_BUILD or GITHUB_STEP_SUMMARY).
source scripts/lib/built.sh
compare=(env -u TF_BUILD -u GITHUB_STEP_SUMMARY dotnet "$(built_assembly src/CloneCopy.BuildCompare)" --sdk "$feed/CloneCopy.$(package_version "$feed" CloneCopy).nupkg")
export DOTNET_CLI_TELEMETRY_OPTOUT=1

if [[ -f "${1:?usage: build-compare.sh SOLUTION-OR-PROJECT [options] | DIR [PROJECTS] [RUNS]}" ]]; then
  target=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  shift
  # The report is printed from where the tool wrote it: the --output given, or the folder it chose (beside the
  # solution's, a new numbered one once that holds a comparison), which its last line names.
  log=$(mktemp)
  "${compare[@]}" "$target" "$@" | tee "$log" >&2
  output=$(sed -n 's/^clonecopy-compare: .* written to //p' "$log" | tail -1)
  rm -f "$log"
  cat "$output/report.md"
  exit 0
fi

dir=$1
projects=${2:-50}
runs=${3:-5}
work="$dir/build-compare"
rm -rf "$work"
mkdir -p "$work"
step "building the repository generator" "read the errors above" dotnet build tools/CloneCopy.Benchmarks -c Release -nologo -clp:ErrorsOnly
dotnet "$(built_assembly tools/CloneCopy.Benchmarks)" generate-repo --out "$work/repo" --projects "$projects" --feed "$feed" --clonecopy "$([[ ${INJECT:-} == 1 ]] && echo no || echo yes)" >/dev/null
export NUGET_PACKAGES="$work/nuget-packages"   # on the same volume as the outputs, as a clone-friendly setup has it
report=${REPORT:-$repo/artifacts/build-compare/generated}
# The report folder is this script's own, remade with the repository: --force replaces its earlier comparison.
"${compare[@]}" "$work/repo/Generated.slnx" --runs "$runs" --output "$report" --force >&2
cat "$report/report.md"
