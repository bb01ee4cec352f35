#!/usr/bin/env bash
# The Windows and macOS jobs' scripts, checked on Linux: nothing here runs Windows or macOS, and those jobs have never run, so their
# first run should fail only on what Windows answers, never on a typo, a missing script or a version.
#
#   bash scripts/check-windows-scripts.sh [FOLDER]     # FOLDER: the packed CloneCopy (default artifacts/packages)
#
# The CI files are read as each CI system reads them (scripts/lib/check-ci-files.py): azure-pipelines.yml with its
# templates and .github/workflows/ci.yml have the same jobs on the same images, run the same scripts and the same
# commands in the same order per job, every script a step names exists, and every Windows and macOS step after the first
# runs after a failure; GitHub's jobs have well-formed steps and matrix values. PowerShell itself (the PowerShell .NET
# tool, 7.6.9) parses every script under scripts/windows and every PowerShell step of both systems (a syntax error
# fails), and bash parses scripts/ci and scripts/macos; the modules the jobs judge with give known answers: reference
# counts (CloneCopyRefCounts.psm1), the disk choices and sparse ranges (CloneCopyDisk.psm1), the build log's per-file
# lines against each expectation and the expectation the product's rule gives per Windows build (CloneCopyLogLines.psm1),
# test results and measurements (CloneCopyTestResults.psm1); each Windows job's expectation is the rule's answer for its
# image's Windows build; what the macOS job runs has no bash-4 construct or GNU-only option (by pattern), and the
# scenarios it leaves out are still scenarios; then the functions the jobs use to pack CloneCopy and to bind a sample
# and the comparison project to the packed version (CloneCopyPackages.psm1) run here, and what they write is restored,
# and the comparison project built, against the packed package. Ends with "windows-scripts: N passed, N failed"; exits 1
# when any check failed.
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

echo "== no script overwrites its own parameter (PowerShell's names ignore case)"
# `$name = ...` in a script with a -Name parameter overwrites it, silently: two such slips were made while writing
# these scripts ($name for an environment variable's name in run-windows-tests.ps1, $expect for one build's expectation
# in clones-on-disk.ps1). Every assignment in a script or function is compared with its parameters, without case.
cat > "$work/shadow.ps1" <<'PS1'
# Each script or function whose body assigns to one of its own parameters (names compared without case, as PowerShell does).
foreach ($file in $env:ARG1 -split ';' | Where-Object { $_ }) {
  $ast = [System.Management.Automation.Language.Parser]::ParseFile($file, [ref] $null, [ref] $null)
  $blocks = @($ast) + @($ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.FunctionDefinitionAst] }, $true) | ForEach-Object { $_.Body })
  foreach ($block in $blocks) {
    $params = @($block.ParamBlock.Parameters | ForEach-Object { $_.Name.VariablePath.UserPath })
    if ($block.Parent -is [System.Management.Automation.Language.FunctionDefinitionAst] -and $block.Parent.Parameters) { $params += @($block.Parent.Parameters | ForEach-Object { $_.Name.VariablePath.UserPath }) }
    if ($params.Count -eq 0) { continue }
    $assigned = $block.FindAll({ param($n) $n -is [System.Management.Automation.Language.AssignmentStatementAst] }, $true) |
      ForEach-Object { $_.Left.FindAll({ param($v) $v -is [System.Management.Automation.Language.VariableExpressionAst] }, $true) }
    foreach ($variable in $assigned) {
      $hit = $params | Where-Object { $_ -ieq $variable.VariablePath.UserPath }
      if ($hit) { "$(Split-Path -Leaf $file):$($variable.Extent.StartLineNumber): `$$($variable.VariablePath.UserPath) assigned, which is the parameter `$$hit" }
    }
  }
}
PS1
shadowed=$(ARG1=$(printf '%s;' scripts/windows/*.ps1 scripts/windows/*.psm1) pwsh -File "$work/shadow.ps1" 2>&1)
if [[ -z $shadowed ]]; then ok "no assignment to a parameter in scripts/windows"; else bad "assignments to a parameter:
$shadowed"; fi

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

echo "== the clone check's reading of a build log (scripts/windows/CloneCopyLogLines.psm1)"
# Per-file lines as `dotnet build -v:d` prints them (indented, CRLF on Windows; CloneCopyTexts.resx's texts), from the
# builds the Windows jobs make: the guarded one (every file cloned by CloneCopy), the unguarded one on Server 2025 (the
# asking file CopyFile's clone, later ones left to CopyFile), CopyFile answering with a copy, and a file copied for a
# reason no expectation allows. Each log is judged as both expectations; Get-CloneExpectation gives the rule per build.
cat > "$work/loglines.ps1" <<'PS1'
Import-Module ./scripts/windows/CloneCopyLogLines.psm1
$guarded = "Project `"R:\g\src\LibB\LibB.csproj`" on node 1 (default targets).`r`n" +
  "                     CloneCopy: cloned `"R:\g\src\LibB\bin\Release\net10.0\LibB.dll`" (4608 bytes not written).`r`n" +
  "                     CloneCopy: cloned `"R:\g\src\App\bin\Release\net10.0\data.csv`" (200000 bytes not written).`r`n" +
  "                     CloneCopy: copied `"R:\g\src\App\bin\Release\net10.0\empty.txt`" (0 bytes): empty file.`r`n" +
  "       CloneCopy: 2 files cloned, 1 copied (200 KB not written) [App]`r`n"
$unguarded = "    CloneCopy: cloned `"R:\u\LibB.dll`" (4608 bytes not written).`r`n" +
  "    CloneCopy: cloned `"R:\u\data.csv`" (200000 bytes not written).`r`n" +
  "    CloneCopy: copied `"R:\u\logo.txt`" (70000 bytes): Windows' CopyFile clones here itself.`r`n" +
  "    CloneCopy: copied `"R:\u\App\LibB.dll`" (4608 bytes): Windows' CopyFile clones here itself.`r`n"
$asked = "    CloneCopy: cloned `"R:\a\LibB.dll`" (4608 bytes not written).`r`n" +
  "    CloneCopy: copied `"R:\a\data.csv`" (200000 bytes): Windows' CopyFile was asked whether it clones on this volume, and copied this file.`r`n" +
  "    CloneCopy: cloned `"R:\a\logo.txt`" (70000 bytes not written).`r`n"
$otherVolume = "    CloneCopy: cloned `"R:\o\LibB.dll`" (4608 bytes not written).`r`n    CloneCopy: copied `"R:\o\x.dll`" (9000 bytes): different volumes.`r`n"
$linux = "CloneCopy: copied `"/x/a b.bin`" in the kernel (5000 bytes): the filesystem cannot clone.`nCloneCopy: cloned `"/x/z`" in place of a hard link (7000 bytes not written).`n"
"parse " + ((ConvertFrom-CloneCopyFileLines $guarded | ForEach-Object { "$($_.Outcome)/$($_.Bytes)/$($_.Reason)" }) -join ",")
"parse-linux " + ((ConvertFrom-CloneCopyFileLines $linux | ForEach-Object { "$($_.Outcome)/$($_.Path)/$($_.Bytes)/$($_.Reason)" }) -join ",")
"parse-none " + @(ConvertFrom-CloneCopyFileLines "").Count
foreach ($case in @(@{ n = "guarded"; t = $guarded }, @{ n = "unguarded"; t = $unguarded }, @{ n = "asked"; t = $asked }, @{ n = "other-volume"; t = $otherVolume })) {
  foreach ($expect in "BlockClone", "CopyFileClones") {
    $v = Test-CloneLines -Files (ConvertFrom-CloneCopyFileLines $case.t) -Expect $expect
    "$($case.n) as ${expect}: checked $($v.Checked.Count), asked $($v.AskedAndCopied.Count) [" + ($v.Failures -join " | ") + "]"
  }
}
"rule " + ((@(@(20348, $true), @(20348, $false), @(22620, $false), @(22621, $false), @(26100, $false), @(26100, $true)) |
  ForEach-Object { "$($_[0])$(if ($_[1]) { '+guard' })=$(Get-CloneExpectation -OsBuild $_[0] -Guarded:$_[1])" }) -join " ")
PS1
verdicts=$(pwsh -File "$work/loglines.ps1" 2>&1)
expected='parse cloned/4608/,cloned/200000/,copied/0/empty file
parse-linux copied//x/a b.bin/5000/the filesystem cannot clone,cloned//x/z/7000/
parse-none 0
guarded as BlockClone: checked 2, asked 0 []
guarded as CopyFileClones: checked 2, asked 0 [no file was left to CopyFile ("Windows'"'"' CopyFile clones here itself"): CloneCopy did not find that CopyFile clones on this volume]
unguarded as BlockClone: checked 2, asked 0 [2 files left to CopyFile, e.g. R:\u\logo.txt: with the guard, or before build 22621, CloneCopy clones every file itself]
unguarded as CopyFileClones: checked 4, asked 0 []
asked as BlockClone: checked 2, asked 0 [the CopyFile question was asked (R:\a\data.csv): with the guard, or before build 22621, it never is]
asked as CopyFileClones: checked 2, asked 1 [no file was left to CopyFile ("Windows'"'"' CopyFile clones here itself"): CloneCopy did not find that CopyFile clones on this volume | CopyFile was asked whether it clones here and copied R:\a\data.csv: its clusters, read next, say whether CopyFile did not clone on this image or the question was answered wrong]
other-volume as BlockClone: checked 1, asked 0 [1 files copied (different volumes), which BlockClone does not allow, e.g. R:\o\x.dll]
other-volume as CopyFileClones: checked 1, asked 0 [1 files copied (different volumes), which CopyFileClones does not allow, e.g. R:\o\x.dll | no file was left to CopyFile ("Windows'"'"' CopyFile clones here itself"): CloneCopy did not find that CopyFile clones on this volume]
rule 20348+guard=BlockClone 20348=BlockClone 22620=BlockClone 22621=CopyFileClones 26100=CopyFileClones 26100+guard=BlockClone'
known_answers "build log lines" "$verdicts" "$expected" "ConvertFrom-CloneCopyFileLines, Test-CloneLines, Get-CloneExpectation: 15 known answers (the guarded log is no CopyFile verdict: C1)"

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

echo "== a measurement's results: printed, failed only when nothing ran (scripts/windows/CloneCopyTestResults.psm1)"
# The fresh-source measurement (run-windows-tests.ps1 -Measure): a failed test is a finding, printed with its output and
# message; a class none of whose tests ran (only skipped, or absent), unreadable results or errors outside tests fail.
cat > "$work/measure.ps1" <<'PS1'
Import-Module ./scripts/windows/CloneCopyTestResults.psm1
function Results([string[]] $tests, [int] $errors = 0) {
  $body = ($tests | ForEach-Object {
    $type, $result, $output = $_ -split ":", 3
    $inner = if ($output) { "<output><![CDATA[$output]]></output>" } else { "" }
    if ($result -eq "Fail") { $inner += "<failure exception-type=`"X`"><message><![CDATA[7 of 64 clones held zeros]]></message></failure>" }
    if ($result -eq "Skip") { $inner += "<reason><![CDATA[not asked]]></reason>" }
    "<collection name=`"c`"><test name=`"$type.M`" type=`"$type`" method=`"M`" result=`"$result`">$inner</test></collection>"
  }) -join ""
  "<?xml version=`"1.0`" encoding=`"utf-8`"?><assemblies schema-version=`"3`"><assembly name=`"T.dll`" errors=`"$errors`" total=`"$($tests.Count)`">$body</assembly></assemblies>"
}
$classes = @("FreshSourceParallelCloneTests")
foreach ($case in @(
    @{ n = "found-zeros"; t = @("N.Windows.FreshSourceParallelCloneTests:Fail:mitigation off`nzero-filled clones: 7 of 64") },
    @{ n = "no-zeros"; t = @("N.Windows.FreshSourceParallelCloneTests:Pass:mitigation off: no zero-filled clone in 64") },
    @{ n = "only-skipped"; t = @("N.Windows.FreshSourceParallelCloneTests:Skip") },
    @{ n = "other-class"; t = @("N.Windows.ReadOnlySourceRejectedCloneTests:Pass") },
    @{ n = "errors"; t = @("N.Windows.FreshSourceParallelCloneTests:Pass"); e = 1 })) {
  $m = Get-XunitMeasurement -XmlText (Results $case.t ([int]$case.e)) -Classes $classes
  "$($case.n): lines [" + ($m.Lines -join " / ") + "] why [" + ($m.Why -join "; ") + "]"
}
$m = Get-XunitMeasurement -XmlText "<assemblies>" -Classes $classes
"not-xml: why [" + ($m.Why -join "; ").Substring(0, 23) + "]"
PS1
verdicts=$(pwsh -File "$work/measure.ps1" 2>&1)
expected='found-zeros: lines [Fail: N.Windows.FreshSourceParallelCloneTests.M /     mitigation off /     zero-filled clones: 7 of 64 /     7 of 64 clones held zeros] why []
no-zeros: lines [Pass: N.Windows.FreshSourceParallelCloneTests.M /     mitigation off: no zero-filled clone in 64] why []
only-skipped: lines [Skip: N.Windows.FreshSourceParallelCloneTests.M /     not asked] why [FreshSourceParallelCloneTests: no test ran (is the class there, and does the filter name it?)]
other-class: lines [] why [FreshSourceParallelCloneTests: no test ran (is the class there, and does the filter name it?)]
errors: lines [Pass: N.Windows.FreshSourceParallelCloneTests.M] why [1 errors outside tests (see the job'"'"'s results file)]
not-xml: why [the results are not XML]'
known_answers "measurement" "$verdicts" "$expected" "Get-XunitMeasurement: 6 known answers (a failed test is reported, not failed; a class that only skipped measured nothing)"

echo "== each Windows job's expectation is the product's rule for its image's Windows build (CloneCopyLogLines.psm1)"
# The builds of the hosted images (actions/runner-images, images/windows/Windows2022-Readme.md "OS Version: 10.0.20348",
# Windows2025-VS2026-Readme.md and Windows2025-Readme.md "OS Version: 10.0.26100"); clones-on-disk.ps1 checks the real
# build again on the agent. Each job's `expect` (the unguarded build's) must be what Get-CloneExpectation gives there.
if [[ -n $python ]]; then
  while read -r system job image expect; do
    case $image in windows-2022) build=20348 ;; windows-2025) build=26100 ;; *) build= ;; esac
    if [[ -z $build ]]; then bad "$system $job: no known Windows build for its image $image"; continue; fi
    rule=$(ARG1=$build pwsh -Command 'Import-Module ./scripts/windows/CloneCopyLogLines.psm1; Get-CloneExpectation -OsBuild ([int]$env:ARG1)' 2>&1)
    if [[ $rule == "$expect" ]]; then ok "$system $job ($image, build $build): expects $expect, the rule's answer"
    else bad "$system $job ($image, build $build): expects $expect, where CloneCopy's rule gives $rule"; fi
  done < <("$python" - "$repo" <<'PY'
import sys, yaml, os
root = sys.argv[1]
load = lambda name: yaml.safe_load(open(os.path.join(root, name)))
for stage in load("azure-pipelines.yml")["stages"]:
    for job in stage.get("jobs", []):
        for step in job.get("steps", []):
            if "expect" in (step.get("parameters") or {}):
                print("azure", job["job"], job["pool"]["vmImage"], step["parameters"]["expect"])
for job in load(".github/workflows/ci.yml")["jobs"].values():
    for entry in ((job.get("strategy") or {}).get("matrix") or {}).get("include") or []:
        if "expect" in entry:
            print("github", entry["job"], entry["image"], entry["expect"])
PY
)
fi

echo "== the macOS job's bash: bash 3.2 and BSD tools"
# macOS's /bin/bash is 3.2 (actions/runner-images, macos-15 readme: "Bash 3.2.57"), its sed, stat, date, readlink and
# grep BSD's, and it has no timeout: no construct of a later bash and no GNU-only option in what the macOS job runs (its
# scripts, and what they source or run under scripts/). A heuristic, by pattern: each finding names its line.
bsd_bash32_findings() {
  grep -H -n -E 'declare -[AnlL]|local -[AnlL]|mapfile|readarray|\$\{[A-Za-z_]+(,,?|\^\^?)\}|;;&|\|&|&>>|coproc|shopt -s globstar|\[\[ -v |\$\{[A-Za-z_]+\[-[0-9]+\]\}|wait -n|EPOCHREALTIME|EPOCHSECONDS|sed -i( |$)|readlink -f|stat -c|stat --|date -d|(^|[;&|(])[[:space:]]*(timeout|tac) |grep -[a-zA-Z]*P|find .*-printf|xargs -r|sort -V|du -b|base64 -w|numfmt' "$@" | grep -v -E '^[^:]+:[0-9]+:[[:space:]]*#'
}
macos_scripts=(scripts/macos/*.sh scripts/ci/*.sh)
for ((i = 0; i < ${#macos_scripts[@]}; i++)); do
  for named in $(grep -o -E '(source|bash) scripts/[A-Za-z0-9/._-]+\.sh' "${macos_scripts[$i]}" | awk '{ print $2 }'); do
    [[ " ${macos_scripts[*]} " == *" $named "* ]] || macos_scripts+=("$named")
  done
done
if findings=$(bsd_bash32_findings "${macos_scripts[@]}"); then
  bad "bash 3.2 or BSD tools in the macOS job's scripts:
$findings"
else
  ok "no bash-4 construct or GNU-only option in the ${#macos_scripts[@]} scripts the macOS job runs (${macos_scripts[*]})"
fi

echo "== the scenarios the macOS differential step leaves out are still scenarios (scripts/macos/differential-on-apfs.sh)"
left_out=$(sed -n 's/^left_out=(\(.*\))$/\1/p' scripts/macos/differential-on-apfs.sh)
if [[ -z $left_out ]]; then bad "differential-on-apfs.sh names no left_out=(...) array"; fi
while IFS= read -r name; do
  [[ -z $name ]] && continue
  if grep -q -F "new(\"$name\"" tests/Shared/Differential/*.cs; then ok "left out on macOS, and a scenario: \"$name\""
  else bad "differential-on-apfs.sh leaves out \"$name\", which no scenario is called (renamed? then it runs on macOS again)"; fi
done < <(grep -o '"[^"]*"' <<<"$left_out" | tr -d '"')

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
