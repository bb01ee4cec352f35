# Checks on Windows that CloneCopy's clones are real: reads every file a build log says was cloned (or, where
# Windows' CopyFile clones by itself, copied by CopyFile) and asks ReFS for each extent's reference count
# (fsutil file queryExtentsAndRefCounts, as microsoft/CopyOnWrite's own tests do). A clone shares its clusters
# with its source, so every extent must count at least 2 references (a file's partial last cluster excepted, see
# Test-AllExtentsShared in CloneCopyRefCounts.psm1); an extent at 1 elsewhere is a file that was written, not cloned, and fails the check. ReFS updates the counts with a delay of seconds, so a file is read again for
# up to a minute before it fails.
#
#   pwsh scripts/windows/assert-clones.ps1 -Log build.log -Expect BlockClone       # Windows Server 2022: CloneCopy clones
#   pwsh scripts/windows/assert-clones.ps1 -Log build.log -Expect CopyFileClones   # Dev Drive on 2025: CopyFile was seen to clone
#
# The log is a `dotnet build -v:d` log: CloneCopy's per-file lines are of low importance.
param(
  [Parameter(Mandatory)] [string] $Log,
  [Parameter(Mandatory)] [ValidateSet('BlockClone', 'CopyFileClones')] [string] $Expect
)
$ErrorActionPreference = 'Stop'
Import-Module (Join-Path $PSScriptRoot 'CloneCopyRefCounts.psm1')
$text = Get-Content -Raw $Log

# CloneCopy: cloned "R:\...\Lib.dll" (4608 bytes not written).
# CloneCopy: copied "R:\...\Lib.dll" (4608 bytes): Windows' CopyFile clones here itself.
$cloned = [regex]::Matches($text, 'CloneCopy: cloned "([^"]+)" \((\d+) bytes not written\)')
$byCopyFile = [regex]::Matches($text, 'CloneCopy: copied "([^"]+)" \((\d+) bytes\): Windows'' CopyFile clones here itself')
$cannot = [regex]::Matches($text, 'CloneCopy: copied "([^"]+)" \((\d+) bytes\): (the filesystem cannot clone|no clone path on this platform yet|clone refused for this file)')
Write-Host "log: $($cloned.Count) cloned by CloneCopy, $($byCopyFile.Count) copied by CopyFile where it clones, $($cannot.Count) copied because no clone was possible"

$failures = @()
if ($cannot.Count -gt 0) { $failures += "$($cannot.Count) files copied without a clone, e.g. $($cannot[0].Value)" }
if ($Expect -eq 'BlockClone') {
  if ($cloned.Count -eq 0) { $failures += 'no file was cloned by CloneCopy (Windows Server 2022: CopyFile does not clone, CloneCopy must)' }
  if ($byCopyFile.Count -gt 0) { $failures += "the probe said CopyFile clones here ($($byCopyFile.Count) files), which Windows Server 2022 does not" }
  $checked = $cloned
} else {
  if ($byCopyFile.Count -eq 0) { $failures += 'CloneCopy did not find that CopyFile clones on this Dev Drive (no file says "Windows'' CopyFile clones here itself")' }
  # The first large file of each volume is CopyFile's own clone, found shared by CloneCopy and reported "cloned";
  # files cloned meanwhile by CloneCopy are clones too: all are read.
  $checked = @($byCopyFile) + @($cloned)
}

# Files smaller than a cluster may hold no extent of their own; every file of a cluster (4 KiB) or more is read.
$files = $checked | Where-Object { [long]$_.Groups[2].Value -ge 4096 } | ForEach-Object { $_.Groups[1].Value } | Sort-Object -Unique
$notShared = @()
foreach ($file in $files) {
  $length = (Get-Item -LiteralPath $file).Length
  $deadline = (Get-Date).AddSeconds(60)
  do {
    $counts = @(Get-RefCounts $file)
    $shared = Test-AllExtentsShared -Counts $counts -Length $length
    if (-not $shared) { Start-Sleep -Seconds 2 }
  } while (-not $shared -and (Get-Date) -lt $deadline)
  if (-not $shared) { $notShared += "$file (reference counts: $($counts -join ', '))" }
}
Write-Host "read reference counts of $($files.Count) files: $($files.Count - $notShared.Count) share every extent"
if ($files.Count -eq 0) { $failures += 'no file of a cluster or more to read reference counts of' }
if ($notShared.Count -gt 0) { $failures += "$($notShared.Count) files said to be clones have an extent no other file shares: $($notShared | Select-Object -First 5)" }

if ($failures.Count -gt 0) {
  $failures | ForEach-Object { Write-Host "assert-clones: FAILED $_" }
  exit 1
}
Write-Host "assert-clones: passed ($Expect, $($files.Count) files shared by reference count)"
exit 0
