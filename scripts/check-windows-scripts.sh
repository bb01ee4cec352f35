#!/usr/bin/env bash
# The Windows jobs' PowerShell, checked on Linux: nothing here runs Windows, and those jobs have never run, so their
# first run should fail only on what Windows answers, never on a typo, a missing script or a version.
#
#   bash scripts/check-windows-scripts.sh [FOLDER]     # FOLDER: the packed CloneCopy (default artifacts/packages)
#
# PowerShell itself (the PowerShell .NET tool, 7.6.9) parses every script under scripts/windows and every inline
# `pwsh:` step of azure-pipelines.yml and .ci/windows-steps.yml (a syntax error fails); each script a step names
# exists; the clone checks' reading of reference counts (scripts/windows/CloneCopyRefCounts.psm1) gives known answers;
# then the functions the jobs use to bind a sample and the comparison project to the packed version
# (scripts/windows/CloneCopyPackages.psm1) run here, and what they write is restored, and the comparison project built,
# against the packed package. Ends with "windows-scripts: N passed, N failed"; exits 1 when any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
source scripts/lib/packages.sh
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAILED: $*"; }
finish() { echo "windows-scripts: $passed passed, $failed failed"; ((failed == 0)); exit $?; }

work=$(mktemp -d "${TMPDIR:-/tmp}/clonecopy-windows-scripts.XXXXXX")
trap '[[ -n ${KEEP:-} ]] || rm -rf "$work"' EXIT
export NUGET_PACKAGES="$work/nuget-packages" DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 POWERSHELL_TELEMETRY_OPTOUT=1 POWERSHELL_UPDATECHECK=Off

folder=${1:-artifacts/packages}
if ! ls "$folder"/CloneCopy.[0-9]*.nupkg >/dev/null 2>&1; then
  echo "== packing CloneCopy into $folder"
  pack_clonecopy "$folder" -clp:ErrorsOnly >/dev/null || { bad "dotnet pack src/CloneCopy"; finish; }
fi
folder=$(cd "$folder" && pwd)
version=$(package_version "$folder" CloneCopy) || { bad "one CloneCopy package in $folder"; finish; }

echo "== PowerShell (the PowerShell .NET tool, in artifacts/tools/pwsh)"
tools="$repo/artifacts/tools/pwsh"
if [[ ! -x "$tools/pwsh" ]] && ! dotnet tool install PowerShell --version 7.6.9 --tool-path "$tools" >"$work/tool.log" 2>&1; then
  tail -5 "$work/tool.log"; bad "dotnet tool install PowerShell --version 7.6.9"; finish
fi
# Arguments reach a -Command through the environment (ARG1, ARG2): pwsh appends words after -Command to the command.
pwsh() { NO_COLOR=1 "$tools/pwsh" -NoLogo -NoProfile -NonInteractive "$@"; }
echo "  $(pwsh -Command '$PSVersionTable.PSVersion.ToString()')"

echo "== every script parses"
# The inline steps, each to a file of its own; a template expression (\${{ parameters.x }}) becomes a word. Azure's
# macros, \$(VOLUME), are PowerShell subexpressions as they stand.
mkdir -p "$work/inline"
python3 - "$work/inline" azure-pipelines.yml .ci/windows-steps.yml <<'PY' || bad "the pipeline files are YAML"
import re, sys, yaml
out = sys.argv[1]
def steps(node, path):
    if isinstance(node, dict):
        if isinstance(node.get("pwsh"), str):
            yield node.get("displayName", path), node["pwsh"]
        for key, value in node.items():
            yield from steps(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from steps(value, f"{path}[{i}]")
for name in sys.argv[2:]:
    for n, (title, script) in enumerate(steps(yaml.safe_load(open(name)), name)):
        text = re.sub(r"\$\{\{\s*parameters\.(\w+)\s*\}\}", r"\1", script)
        with open(f"{out}/{name.replace('/', '_').lstrip('.')}-{n + 1}.ps1", "w") as f:
            f.write(f"# {name}: {title}\n{text}")
PY
for file in scripts/windows/*.ps1 scripts/windows/*.psm1 "$work"/inline/*.ps1; do
  label=${file#"$work/inline/"}
  errors=$(ARG1=$file pwsh -Command '$e = $null; [System.Management.Automation.Language.Parser]::ParseFile($env:ARG1, [ref] $null, [ref] $e) | Out-Null; $e | ForEach-Object { "line $($_.Extent.StartLineNumber): $($_.Message)" }' 2>&1)
  if [[ -z $errors ]]; then ok "parses: $label"; else bad "parses: $label: $errors"; fi
done
# Each script a step runs is there.
for named in $(cat "$work"/inline/*.ps1 azure-pipelines.yml .ci/windows-steps.yml | grep -o 'scripts/windows/[A-Za-z0-9.-]*\.ps[m1]*1' | sort -u); do
  if [[ -f $named ]]; then ok "exists: $named"; else bad "a step runs $named, which is not there"; fi
done

echo "== reference counts, read and judged as the clone checks do (scripts/windows/CloneCopyRefCounts.psm1)"
# Lines in the form fsutil prints them (microsoft/CopyOnWrite's tests look for "Ref: 0x1"); each case: the counts and
# the file's length, then whether every extent is shared.
verdicts=$(pwsh -Command '
  Import-Module ./scripts/windows/CloneCopyRefCounts.psm1
  $text = "VCN: 0x0        Clusters: 0x10       LCN: 0x2a40      Ref: 0x2`nVCN: 0x10       Clusters: 0x1        LCN: 0x3b00      Ref: 0x1`n"
  "parse " + ((ConvertFrom-RefCountText $text) -join ",")
  "parse-none " + @(ConvertFrom-RefCountText "").Count
  foreach ($case in @(@{ c = @(2, 2); l = 8192 }, @{ c = @(3, 1); l = 5000 }, @{ c = @(2, 0); l = 8192 }, @{ c = @(0); l = 8192 },
                      @{ c = @(1); l = 4096 }, @{ c = @(); l = 8192 }, @{ c = @(2, 1); l = 8192 })) {
    "shared " + ($case.c -join ",") + "/" + $case.l + " " + (Test-AllExtentsShared -Counts $case.c -Length $case.l)
  }' 2>&1)
expected='parse 2,1
parse-none 0
shared 2,2/8192 True
shared 3,1/5000 True
shared 2,0/8192 False
shared 0/8192 False
shared 1/4096 False
shared /8192 False
shared 2,1/8192 False'
if [[ $verdicts == "$expected" ]]; then
  ok "ConvertFrom-RefCountText and Test-AllExtentsShared: 9 known answers (a lone extent at 0 is not shared)"
else
  bad "reference counts: got
$verdicts
expected
$expected"
fi

echo "== the packed version, as the Windows jobs find it ($version)"
found=$(ARG1=$folder pwsh -Command 'Import-Module ./scripts/windows/CloneCopyPackages.psm1; Get-PackedCloneCopyVersion $env:ARG1' 2>&1)
if [[ $found == "$version" ]]; then ok "Get-PackedCloneCopyVersion: $found"; else bad "Get-PackedCloneCopyVersion said '$found', the package is $version"; fi

echo "== samples/Repository bound to it (the 'Clones on disk' step), then restored"
bound=$(ARG1="$work/sample/Repository" ARG2=$folder pwsh -Command 'Import-Module ./scripts/windows/CloneCopyPackages.psm1; Copy-CloneCopySample -Name Repository -Destination $env:ARG1 -Packages $env:ARG2' 2>&1)
if [[ $bound == "$version" ]] && ! grep -rqs --include=global.json --include='*.csproj' 'X\.Y\.Z' "$work/sample"; then
  ok "Copy-CloneCopySample: version $bound, no X.Y.Z left"
else
  bad "Copy-CloneCopySample: $bound"
fi
if dotnet restore "$work/sample/Repository/Sample.slnx" -nologo >"$work/restore.log" 2>&1; then
  ok "the bound sample restores CloneCopy $version from $folder"
else
  tail -5 "$work/restore.log"; bad "the bound sample does not restore"
fi

echo "== the comparison project (compare-with-msbuild-copy.ps1), built with CloneCopy"
project=$(ARG1="$work/compare" ARG2=$folder pwsh -Command 'Import-Module ./scripts/windows/CloneCopyPackages.psm1; New-CloneCopyComparisonProject -Directory $env:ARG1 -Packages $env:ARG2' 2>&1)
mkdir -p "$work/compare/src" && head -c 4097 /dev/urandom >"$work/compare/src/cluster-plus-one.bin"
if [[ -f $project ]] && (cd "$work/compare" && dotnet build "$project" -nologo -v:n -tl:off -p:Out="$work/compare/out" >"$work/compare.log" 2>&1) \
  && cmp -s "$work/compare/src/cluster-plus-one.bin" "$work/compare/out/cluster-plus-one.bin" && grep -Eq 'CloneCopy: [0-9]+ files? cloned' "$work/compare.log"; then
  ok "New-CloneCopyComparisonProject: built with CloneCopy $version, the file copied by CloneCopy"
else
  tail -8 "$work/compare.log" 2>/dev/null; bad "New-CloneCopyComparisonProject: '$project' did not build with CloneCopy's Copy"
fi
finish
