#!/usr/bin/env bash
# The Windows jobs' PowerShell, checked on Linux: nothing here runs Windows, and those jobs have never run, so their
# first run should fail only on what Windows answers, never on a typo, a missing script or a version.
#
#   bash scripts/check-windows-scripts.sh [FOLDER]     # FOLDER: the packed CloneCopy (default artifacts/packages)
#
# The CI files are read as each CI system reads them (scripts/lib/check-ci-files.py): azure-pipelines.yml with its
# templates and .github/workflows/ci.yml have the same jobs on the same images, run the same scripts per job, and every
# script a step names exists; GitHub's jobs have well-formed steps and matrix values. PowerShell itself (the PowerShell
# .NET tool, 7.6.9) parses every script under scripts/windows and every PowerShell step of both systems (a syntax error
# fails), and bash parses scripts/ci and scripts/macos; the clone checks' reading of reference counts
# (CloneCopyRefCounts.psm1), the disk choices and sparse ranges (CloneCopyDisk.psm1) and the test results' verdicts
# (CloneCopyTestResults.psm1) give known answers; then the functions the jobs use to pack CloneCopy and to bind a sample
# and the comparison project to the packed version (CloneCopyPackages.psm1) run here, and what they write is restored,
# and the comparison project built, against the packed package. Ends with "windows-scripts: N passed, N failed"; exits 1 when any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
source scripts/lib/packages.sh
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAILED: $*"; }
finish() { echo "windows-scripts: $passed passed, $failed failed"; ((failed == 0)); exit $?; }
# known_answers WHAT GOT EXPECTED SAID: a check of known answers passes (saying SAID) when GOT is EXPECTED, else shows both.
known_answers() {
  if [[ $2 == "$3" ]]; then ok "$4"; else bad "$1: got
$2
expected
$3"; fi
}

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

echo "== the CI files: structure, the same jobs and scripts on both systems (scripts/lib/check-ci-files.py)"
# Each PowerShell step of azure-pipelines.yml (and its templates) and .github/workflows/ci.yml goes to a file of its own
# for the parser below. PyYAML: the python3 on PATH, or Debian's (python3-yaml, which scripts/setup.sh installs).
mkdir -p "$work/inline"
python=
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import yaml' 2>/dev/null; then python=$candidate; break; fi
done
if [[ -z $python ]]; then
  bad "no python3 with PyYAML (bash scripts/setup.sh installs python3-yaml)"
else
  while IFS= read -r line; do
    case $line in
      "  ok: "*) ok "${line#  ok: }" ;;
      "  FAILED: "*) bad "${line#  FAILED: }" ;;
      *) bad "check-ci-files.py: $line" ;;
    esac
  done < <("$python" scripts/lib/check-ci-files.py "$repo" "$work/inline" 2>&1)
fi

echo "== every script parses"
# The CI scripts in bash (both CI systems' macOS and clonecopy-compare steps).
for file in scripts/ci/*.sh scripts/macos/*.sh; do
  if errors=$(bash -n "$file" 2>&1); then ok "parses (bash): $file"; else bad "parses (bash): $file: $errors"; fi
done
for file in scripts/windows/*.ps1 scripts/windows/*.psm1 "$work"/inline/*.ps1; do
  label=${file#"$work/inline/"}
  errors=$(ARG1=$file pwsh -Command '$e = $null; [System.Management.Automation.Language.Parser]::ParseFile($env:ARG1, [ref] $null, [ref] $e) | Out-Null; $e | ForEach-Object { "line $($_.Extent.StartLineNumber): $($_.Message)" }' 2>&1)
  if [[ -z $errors ]]; then ok "parses: $label"; else bad "parses: $label: $errors"; fi
done
# Each script a step runs is there, and each module or script the scripts load from their own folder ('X.psm1').
for named in $(cat "$work"/inline/*.ps1 azure-pipelines.yml .ci/windows-steps.yml | grep -o 'scripts/windows/[A-Za-z0-9.-]*\.ps[m1]*1' | sort -u) \
             $(cat scripts/windows/*.ps1 | grep -o "'[A-Za-z0-9.-]*\.ps[m1]*1'" | tr -d "'" | sort -u | sed 's|^|scripts/windows/|'); do
  if [[ -f $named ]]; then ok "exists: $named"; else bad "a step or script runs $named, which is not there"; fi
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
known_answers "reference counts" "$verdicts" "$expected" "ConvertFrom-RefCountText and Test-AllExtentsShared: 9 known answers (a lone extent at 0 is not shared)"

echo "== disk: where the VHDX goes, and a sparse file's hole (scripts/windows/CloneCopyDisk.psm1)"
# Drives as Win32_LogicalDisk gives them; ranges as `fsutil sparse queryrange` prints them (an English Windows; only
# the hex numbers are read). The 8 MiB case: 1 MiB head, 6 MiB hole, 1 MiB tail.
disk=$(pwsh -Command '
  Import-Module ./scripts/windows/CloneCopyDisk.psm1
  $drives = @([pscustomobject]@{ Name = "C"; Free = 90GB; Size = 256GB }, [pscustomobject]@{ Name = "D"; Free = 9GB; Size = 14GB })
  "drive " + (Select-VhdDrive -Drives $drives -NeedBytes 16GB)
  "drive-excluded " + $(try { Select-VhdDrive -Drives $drives -NeedBytes 16GB -Exclude C } catch { "throws: " + $_.Exception.Message })
  "drive-small " + $(try { Select-VhdDrive -Drives $drives -NeedBytes 100GB } catch { "throws" })
  "path " + (Get-VhdPath -Drive C -Name refs)
  $text = "sparse range: Offset: 0x0000000000000000  Length: 0x0000000000100000`r`nsparse range: Offset: 0x0000000000700000  Length: 0x0000000000100000`r`n"
  $ranges = ConvertFrom-SparseRangeText $text
  "ranges " + (($ranges | ForEach-Object { "{0}+{1}" -f $_.Offset, $_.Length }) -join ",")
  "hole [" + (Test-HeadAndTailOnly -Ranges $ranges -Length 8MB) + "]"
  "one-range [" + (Test-HeadAndTailOnly -Ranges @(ConvertFrom-SparseRangeText "Offset: 0x0 Length: 0x800000") -Length 8MB) + "]"
  "none [" + (Test-HeadAndTailOnly -Ranges @(ConvertFrom-SparseRangeText "") -Length 8MB) + "]"
  "short-tail [" + (Test-HeadAndTailOnly -Ranges @([pscustomobject]@{ Offset = 0; Length = 1MB }, [pscustomobject]@{ Offset = 3MB; Length = 1MB }) -Length 8MB) + "]"' 2>&1)
expected='drive C
drive-excluded throws: no drive has 16.0 GB free for the VHDX (C: 90.0 GB free, D: 9.0 GB free)
drive-small throws
path C:\clonecopy-ci\refs.vhdx
ranges 0+1048576,7340032+1048576
hole []
one-range [1 allocated ranges, not 2 (the head and the tail around one hole)]
none [0 allocated ranges, not 2 (the head and the tail around one hole)]
short-tail [its last allocated range ends at 4194304, before its end (8388608)]'
known_answers "disk" "$disk" "$expected" "Select-VhdDrive, Get-VhdPath, ConvertFrom-SparseRangeText, Test-HeadAndTailOnly: 9 known answers (one range is no hole)"

echo "== test results: a class that ran no test fails (scripts/windows/CloneCopyTestResults.psm1)"
# Results files in the form xunit.v3 3.2 writes them (-xml): xunit exits 0 when a filter matches nothing.
verdicts=$(pwsh -Command '
  Import-Module ./scripts/windows/CloneCopyTestResults.psm1
  function Results([string[]] $tests, [int] $errors = 0) {
    $body = ($tests | ForEach-Object { $type, $result = $_ -split ":"; "<collection name=`"c`"><test name=`"$type.M`" type=`"$type`" method=`"M`" result=`"$result`" /></collection>" }) -join ""
    "<?xml version=`"1.0`" encoding=`"utf-8`"?><assemblies schema-version=`"3`"><assembly name=`"T.dll`" errors=`"$errors`" total=`"$($tests.Count)`">$body</assembly></assemblies>"
  }
  $classes = @("FreshSourceParallelCloneTests", "ReadOnlySourceRejectedCloneTests")
  $both = @("N.Windows.FreshSourceParallelCloneTests:Pass", "N.Windows.ReadOnlySourceRejectedCloneTests:Pass")
  "both [" + ((Test-XunitResults -XmlText (Results $both) -Classes $classes) -join "; ") + "]"
  "one-missing [" + ((Test-XunitResults -XmlText (Results @($both[0])) -Classes $classes) -join "; ") + "]"
  "none [" + ((Test-XunitResults -XmlText (Results @()) -Classes $classes) -join "; ") + "]"
  "failed [" + ((Test-XunitResults -XmlText (Results @($both[0], "N.Windows.ReadOnlySourceRejectedCloneTests:Fail")) -Classes $classes) -join "; ") + "]"
  "skipped [" + ((Test-XunitResults -XmlText (Results @($both[0], $both[1], "N.Windows.FreshSourceParallelCloneTests:Skip")) -Classes $classes) -join "; ") + "]"
  "errors [" + ((Test-XunitResults -XmlText (Results $both 1) -Classes $classes) -join "; ") + "]"
  "lane-empty [" + ((Test-XunitResults -XmlText (Results @())) -join "; ") + "]"
  "lane [" + ((Test-XunitResults -XmlText (Results @("A.B:Pass"))) -join "; ") + "]"
  "not-xml [" + ((Test-XunitResults -XmlText "<assemblies>") -join "; ").Substring(0, 23) + "]"' 2>&1)
expected='both []
one-missing [ReadOnlySourceRejectedCloneTests: no test ran (is the class there, and does the filter name it?)]
none [FreshSourceParallelCloneTests: no test ran (is the class there, and does the filter name it?); ReadOnlySourceRejectedCloneTests: no test ran (is the class there, and does the filter name it?)]
failed [failed: N.Windows.ReadOnlySourceRejectedCloneTests.M; ReadOnlySourceRejectedCloneTests: none of its 1 tests passed]
skipped [FreshSourceParallelCloneTests: N.Windows.FreshSourceParallelCloneTests.M did not run (Skip)]
errors [1 errors outside tests (see the job'"'"'s results file)]
lane-empty [no test ran]
lane []
not-xml [the results are not XML]'
known_answers "test results" "$verdicts" "$expected" "Test-XunitResults: 9 known answers (no test of a class run, one failed or skipped, errors outside tests: each fails)"

echo "== the packed version, as the Windows jobs find it ($version)"
found=$(ARG1=$folder pwsh -Command 'Import-Module ./scripts/windows/CloneCopyPackages.psm1; Get-PackedCloneCopyVersion $env:ARG1' 2>&1)
if [[ $found == "$version" ]]; then ok "Get-PackedCloneCopyVersion: $found"; else bad "Get-PackedCloneCopyVersion said '$found', the package is $version"; fi

echo "== CloneCopy packed as the Windows jobs pack it (Invoke-CloneCopyPack), an older package removed first"
mkdir -p "$work/packed" && cp "$folder/CloneCopy.$version.nupkg" "$work/packed/CloneCopy.0.0.1-old.nupkg"
packed=$(ARG1="$work/packed" pwsh -Command 'Import-Module ./scripts/windows/CloneCopyPackages.psm1; Invoke-CloneCopyPack -Packages $env:ARG1 *> $null; Get-PackedCloneCopyVersion $env:ARG1' 2>&1)
# This commit's version: the folder's own when the lanes packed it from this commit (scripts/test.sh), a later one when
# the folder is older than the checkout. Get-PackedCloneCopyVersion fails unless exactly one CloneCopy package is there.
if [[ $packed =~ ^[0-9]+\.[0-9]+\.[0-9]+ && $packed != 0.0.1-old ]]; then ok "Invoke-CloneCopyPack: packed $packed alone, the older package gone"; else bad "Invoke-CloneCopyPack: $packed"; fi

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
