# Checks on Windows that a build's clones are real: reads CloneCopy's per-file lines in a `dotnet build -v:d` log
# (CloneCopyLogLines.psm1: which lines EXPECT allows, each by a rule of the product) and asks ReFS for each extent's
# reference count of every file the log says was cloned, or left to CopyFile where CopyFile clones (fsutil file
# queryExtentsAndRefCounts, as microsoft/CopyOnWrite's own tests do). A clone shares its clusters with its source, so every
# extent must count at least 2 references (a file's partial last cluster excepted, see Test-AllExtentsShared in
# CloneCopyRefCounts.psm1); an extent at 1 elsewhere is a file that was written, not cloned, and fails the check. ReFS
# updates the counts with a delay of seconds, so a file is read again for up to a minute before it fails.
#
#   pwsh scripts/windows/assert-clones.ps1 -Log build.log -Expect BlockClone       # the guard, or before build 22621
#   pwsh scripts/windows/assert-clones.ps1 -Log build.log -Expect CopyFileClones   # no guard, from build 22621 (Server 2025)
#
# Get-CloneExpectation (CloneCopyLogLines.psm1) says which applies to a build; clones-on-disk.ps1 asks it.
param(
  [Parameter(Mandatory)] [string] $Log,
  [Parameter(Mandatory)] [ValidateSet('BlockClone', 'CopyFileClones')] [string] $Expect
)
$ErrorActionPreference = 'Stop'
Import-Module (Join-Path $PSScriptRoot 'CloneCopyRefCounts.psm1')
Import-Module (Join-Path $PSScriptRoot 'CloneCopyLogLines.psm1')

$files = ConvertFrom-CloneCopyFileLines (Get-Content -Raw -LiteralPath $Log)
$summary = ($files | Group-Object { if ($_.Reason) { "$($_.Outcome) ($($_.Reason))" } else { $_.Outcome } } | ForEach-Object { "$($_.Count) $($_.Name)" }) -join '; '
Write-Host "log: $($files.Count) per-file lines: $summary"
$verdict = Test-CloneLines -Files $files -Expect $Expect
$failures = [System.Collections.Generic.List[string]]::new()
$verdict.Failures | ForEach-Object { $failures.Add($_) }

# The shared clusters of FILE, read until ReFS has counted them or a minute has passed.
function Test-Shared([string] $File) {
  $length = (Get-Item -LiteralPath $File).Length
  $deadline = (Get-Date).AddSeconds(60)
  do {
    $counts = @(Get-RefCounts $File)
    $shared = Test-AllExtentsShared -Counts $counts -Length $length
    if (-not $shared) { Start-Sleep -Seconds 2 }
  } while (-not $shared -and (Get-Date) -lt $deadline)
  return [pscustomobject]@{ Shared = $shared; Counts = $counts -join ', ' }
}

# Files smaller than a cluster may hold no extent of their own; every file of a cluster (4 KiB) or more is read.
$toRead = @($verdict.Checked | Where-Object { $_.Bytes -ge 4096 } | ForEach-Object Path | Sort-Object -Unique)
$notShared = @()
foreach ($file in $toRead) {
  $read = Test-Shared $file
  if (-not $read.Shared) { $notShared += "$file (reference counts: $($read.Counts))" }
}
Write-Host "read reference counts of $($toRead.Count) files: $($toRead.Count - $notShared.Count) share every extent"
if ($notShared.Count -gt 0) { $failures.Add("$($notShared.Count) files said to be clones have an extent no other file shares: $($notShared | Select-Object -First 5)") }

# CopyFile asked and answered with a copy: who is wrong? Shared clusters: CopyFile cloned and CloneCopy's question read it
# wrong (a product defect). Not shared: this image's CopyFile does not clone here, against the Block Cloning page.
foreach ($asked in $verdict.AskedAndCopied) {
  $read = Test-Shared $asked.Path
  if ($read.Shared) { $failures.Add("$($asked.Path) is CopyFile's clone (reference counts $($read.Counts)), yet CloneCopy's CopyFile question answered that CopyFile copies") }
  else { $failures.Add("$($asked.Path) is a plain copy (reference counts $($read.Counts)): this image's CopyFile does not clone on this volume, which the job expects it to") }
}

if ($failures.Count -gt 0) {
  $failures | ForEach-Object { Write-Host "assert-clones: FAILED $_" }
  exit 1
}
Write-Host "assert-clones: passed ($Expect, $($toRead.Count) files shared by reference count)"
exit 0
