# Runs the Windows lane's tests (tests/CloneCopy.Tests.Windows) natively with their folders on a ReFS volume or Dev
# Drive, writes xunit's results to artifacts/test-results/NAME.xml and fails unless they passed: xunit itself exits 0
# when a filter matches nothing, so the results are counted here (CloneCopyTestResults.psm1).
#
#   pwsh scripts/windows/run-windows-tests.ps1 -Volume R: -Name lane
#       every test but Wine's own (trait Needs=Wine) and those that need a real ReFS folder (Needs=RealRefs, run next);
#       at least one must run, none fail.
#   pwsh scripts/windows/run-windows-tests.ps1 -Volume R: -Name real-refs -Classes FreshSourceParallelCloneTests, ReadOnlySourceRejectedCloneTests
#       only those classes, with CLONECOPY_TEST_REFS a folder on the volume; each class must run and pass at least one
#       test, and none may fail or be skipped.
#   pwsh scripts/windows/run-windows-tests.ps1 -Volume R: -Name fresh-sources-unguarded -Classes FreshSourceParallelCloneTests -Traits FreshSources=Unguarded -Measure -Variables CLONECOPY_TEST_FRESH_SOURCES=unguarded
#       a measurement of the image, not a test of CloneCopy: the classes' tests with the traits given (NAME=VALUE, xunit's
#       -trait; here only the unguarded test, not the guarded ones, which fail by design with the mitigation off) run
#       with the variables given (NAME=VALUE, for this run only), each test's result, output and failure message are printed, and the step fails only when the
#       measurement did not happen (no test of a class ran, results unreadable, an error outside tests), never on what
#       a test found.
#
# TMP and TEMP on the volume put every scenario the tests make under the temporary folder on ReFS; the folders are
# deleted when the tests end (their 5 GiB host files are sparse, tests/Shared/Windows/SparseHostFiles.cs).
param(
  [Parameter(Mandatory)] [string] $Volume,
  [Parameter(Mandatory)] [string] $Name,
  [string[]] $Classes = @(),
  [string[]] $Traits = @(),
  [switch] $Measure,
  [string[]] $Variables = @()
)
$ErrorActionPreference = 'Stop'
Import-Module (Join-Path $PSScriptRoot 'CloneCopyTestResults.psm1')
Import-Module (Join-Path $PSScriptRoot 'CloneCopyDisk.psm1')
$repo = (Resolve-Path (Join-Path (Join-Path $PSScriptRoot '..') '..')).Path
$results = New-Item -ItemType Directory -Force (Join-Path (Join-Path $repo 'artifacts') 'test-results')
$xml = Join-Path $results "$Name.xml"
Remove-Item -Force -LiteralPath $xml -ErrorAction SilentlyContinue

$work = Join-Path ($Volume.TrimEnd('\') + '\') "tests-$Name"
Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue
$tmp = New-Item -ItemType Directory -Force (Join-Path $work 'tmp')
$env:TMP = $tmp.FullName; $env:TEMP = $tmp.FullName

foreach ($variable in $Variables) {
  # Not $name: PowerShell's names ignore case, and $Name is this script's parameter.
  $variableName, $variableValue = $variable -split '=', 2
  if (-not $variableName -or $null -eq $variableValue) { throw "-Variables takes NAME=VALUE, not '$variable'" }
  Set-Item -LiteralPath "env:$variableName" -Value $variableValue
  Write-Host "for this run: $variableName=$variableValue"
}
if ($Measure -and $Classes.Count -eq 0) { throw '-Measure needs -Classes: a measurement names what it runs' }
if ($Traits.Count -gt 0 -and $Classes.Count -eq 0) { throw '-Traits needs -Classes: they choose among the classes'' tests' }

$arguments = @('-noLogo', '-noColor', '-xml', $xml)
if ($Classes.Count -gt 0) {
  $env:CLONECOPY_TEST_REFS = (New-Item -ItemType Directory -Force (Join-Path $work 'refs')).FullName
  foreach ($class in $Classes) { $arguments += @('-class', "*.$class") }
  foreach ($trait in $Traits) {
    if ($trait -notmatch '^[^=]+=.+$') { throw "-Traits takes NAME=VALUE, not '$trait'" }
    $arguments += @('-trait', $trait)
  }
} else {
  $arguments += @('-trait-', 'Needs=Wine', '-trait-', 'Needs=RealRefs')
}
Write-Host "dotnet run --project tests/CloneCopy.Tests.Windows -c Release -- $($arguments -join ' ')"
try {
  dotnet run --project (Join-Path (Join-Path $repo 'tests') 'CloneCopy.Tests.Windows') -c Release -- @arguments
  $exit = $LASTEXITCODE
} finally {
  Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue
  Write-DiskReport -Step "the tests ($Name)"
}

if ($Measure) {
  $measured = if (Test-Path -LiteralPath $xml) { Get-XunitMeasurement -XmlText (Get-Content -Raw -LiteralPath $xml) -Classes $Classes } else { @{ Lines = @(); Why = @("xunit wrote no results to $xml") } }
  $measured.Lines | ForEach-Object { Write-Host "run-windows-tests ($Name): $_" }
  if ($measured.Why.Count -gt 0) {
    $measured.Why | ForEach-Object { Write-Host "run-windows-tests ($Name): FAILED $_" }
    exit 1
  }
  Write-Host "run-windows-tests ($Name): measured (the test run exited with $exit; a measurement fails only when nothing ran)"
  exit 0
}

$why = @(if (Test-Path -LiteralPath $xml) { Test-XunitResults -XmlText (Get-Content -Raw -LiteralPath $xml) -Classes $Classes } else { "xunit wrote no results to $xml" })
if ($exit -ne 0) { $why += "the test run exited with $exit" }
if ($why.Count -gt 0) {
  $why | ForEach-Object { Write-Host "run-windows-tests ($Name): FAILED $_" }
  exit 1
}
Write-Host "run-windows-tests ($Name): passed"
exit 0
