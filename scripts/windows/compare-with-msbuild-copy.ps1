# The Windows CI experiment: on a ReFS volume (or Dev Drive), clone a set of files chosen to meet each rule
# CloneCopy relies on, with the guard (CloneCopyRequireClones=error) and CloneCopyVerifyClones=true, copy the same files
# with MSBuild's own Copy (DisableCloneCopy=true), and compare each pair: SHA-256, last-write time, attributes, sparse
# flag, integrity setting, then ReFS reference counts (the clone's extents shared, the copy's not). Any difference
# fails the job. The volume's GetVolumeInformationW flags are logged first, so the first real run says which of
# docs/windows.md's assumptions held (POSIX delete A2, block refcounting, integrity streams, sparse files).
# tests/Shared/Windows/MsBuildCopyComparisonCases.cs runs the same matrix and checks against the simulator.
#
# Disk: the sources allocate little (the file just over 4 GiB and the 8 MiB one are sparse: a head and a tail around one
# hole, each proven by `fsutil sparse queryrange`), but CloneCopy's clone of a sparse source is not sparse (as CopyFile's
# copy is not, docs/windows.md step 8) and MSBuild's Copy writes every byte where CopyFile does not clone: about 8 GiB on
# the volume at the peak on Windows Server 2022, all deleted when the comparison ends, pass or fail.
#
#   pwsh scripts/windows/compare-with-msbuild-copy.ps1 -Volume R: -Packages artifacts/packages -Kind ReFS   # or DevDrive
#
# CloneCopy is packed into PACKAGES first (CloneCopyPackages.psm1), and the project binds that version.
param(
  [Parameter(Mandatory)] [string] $Volume,
  [Parameter(Mandatory)] [string] $Packages,
  # A Dev Drive may refuse integrity streams (FSCTL_SET_INTEGRITY_INFORMATION: access denied, reflink-copy #27): there
  # that case is left out, said in the log; on any other volume a refusal fails the comparison.
  [ValidateSet('ReFS', 'DevDrive')] [string] $Kind = 'ReFS'
)
$ErrorActionPreference = 'Stop'
Import-Module (Join-Path $PSScriptRoot 'CloneCopyPackages.psm1')
Import-Module (Join-Path $PSScriptRoot 'CloneCopyRefCounts.psm1')
Import-Module (Join-Path $PSScriptRoot 'CloneCopyDisk.psm1')
Invoke-CloneCopyPack -Packages $Packages
# The builds' logs go where the job publishes its artifacts, so a failure's log can be read after the run.
$logs = New-Item -ItemType Directory -Force (Join-Path (Join-Path (Join-Path $PSScriptRoot '..') '..') 'artifacts/compare-with-msbuild-copy')
$failures = [System.Collections.Generic.List[string]]::new()

Add-Type -TypeDefinition @'
using System;
using System.Runtime.InteropServices;
using System.Text;
public static class CloneCopyProbe
{
    [DllImport("kernel32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
    public static extern bool GetVolumeInformationW(string root, StringBuilder name, int nameSize, out uint serial, out uint maxComponent, out uint flags, StringBuilder fs, int fsSize);
    public static uint Flags(string root, out string fileSystem)
    {
        var name = new StringBuilder(261); var fs = new StringBuilder(261);
        if (!GetVolumeInformationW(root, name, name.Capacity, out _, out _, out uint flags, fs, fs.Capacity))
            throw new System.ComponentModel.Win32Exception(Marshal.GetLastWin32Error());
        fileSystem = fs.ToString();
        return flags;
    }
}
'@

# 1. The volume's flags (GetVolumeInformationW), each CloneCopy reads.
$root = $Volume.TrimEnd('\') + '\'
$fileSystem = ''
$flags = [CloneCopyProbe]::Flags($root, [ref] $fileSystem)
$named = [ordered]@{
  'FILE_SUPPORTS_SPARSE_FILES (0x40)' = 0x40; 'FILE_NAMED_STREAMS (0x40000)' = 0x40000
  'FILE_SUPPORTS_INTEGRITY_STREAMS (0x4000000)' = 0x4000000; 'FILE_SUPPORTS_BLOCK_REFCOUNTING (0x8000000)' = 0x8000000
  'FILE_SUPPORTS_POSIX_UNLINK_RENAME (0x400)' = 0x400
}
Write-Host ("volume {0}: {1}, flags 0x{2:X8}" -f $root, $fileSystem, $flags)
foreach ($entry in $named.GetEnumerator()) { Write-Host ("  {0,-45} {1}" -f $entry.Key, [bool]($flags -band $entry.Value)) }
fsutil fsinfo refsinfo $Volume.TrimEnd('\') | Write-Host
if (-not ($flags -band 0x8000000)) { $failures.Add("$root does not report FILE_SUPPORTS_BLOCK_REFCOUNTING") }

# 2. The sources, on the volume: each meets a rule (docs/windows.md).
$work = Join-Path $root 'msbuild-compare'
# A terminating error anywhere below still deletes the step's files (a trap covers the whole script), then stops it.
trap { if ($work) { Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue }; break }
Remove-Item -Recurse -Force $work -ErrorAction SilentlyContinue
$src = New-Item -ItemType Directory -Force (Join-Path $work 'src')
# A sparse source is marked sparse while empty, so that setting its length allocates nothing (the extension is a hole);
# then its head and tail are written and the range between them is zeroed again (fsutil sparse setrange), and
# `fsutil sparse queryrange` must show the two allocated ranges: the flag alone would let a fully allocated file pass.
function New-Source([string] $name, [long] $length, [switch] $Sparse) {
  $path = Join-Path $src $name
  [System.IO.File]::Create($path).Dispose()
  # A native command's failure does not stop a script ($ErrorActionPreference is for cmdlets): each exit code is read.
  if ($Sparse) {
    fsutil sparse setflag $path | Out-Null
    if ($LASTEXITCODE -ne 0) { throw "fsutil sparse setflag $path failed ($LASTEXITCODE)" }
  }
  $stream = [System.IO.File]::Open($path, 'Open', 'Write')
  try {
    $stream.SetLength($length)
    $head = [byte[]]::new([Math]::Min($length, 1MB)); [System.Random]::new($length % 1000).NextBytes($head)
    $stream.Position = 0; $stream.Write($head, 0, $head.Length)
    if ($length -gt 2MB) { $stream.Position = $length - 1MB; $stream.Write($head, 0, 1MB) }
  } finally { $stream.Dispose() }
  if ($Sparse) {
    # The hole between head and tail: setrange "Fills a specified range of a file with zeros" (fsutil sparse), and of a
    # sparse file's zeroed range "the file system may deallocate" (FSCTL_SET_ZERO_DATA, Learn; MS-FSCC 2.3.85 in the
    # revision read: "A file system MAY choose to deallocate"). A may, not a must: the allocated ranges are read next.
    fsutil sparse setrange $path 1048576 ($length - 2MB) | Out-Null
    if ($LASTEXITCODE -ne 0) { throw "fsutil sparse setrange $path failed ($LASTEXITCODE)" }
    $ranges = Get-SparseRanges $path
    $why = Test-HeadAndTailOnly -Ranges $ranges -Length $length
    Write-Host "${name}: allocated ranges $(($ranges | ForEach-Object { '{0}+{1}' -f $_.Offset, $_.Length }) -join ', ')"
    if ($why) { $failures.Add("$name is not a sparse file with a hole ($why): its case tests nothing") }
  }
  return $path
}
New-Source 'one-byte.bin' 1 | Out-Null
New-Source 'cluster-plus-one.bin' 4097 | Out-Null                # past one 4 KiB cluster: the last cluster rounded up (A1)
New-Source 'sixty-four-k-plus-one.bin' (64KB + 1) | Out-Null     # past one 64 KiB cluster; asks the CopyFile question where it may
# Three clone calls (2 GiB, 2 GiB, then the rest past 4 GiB); sparse, so that the source allocates 2 MiB, not 4 GiB.
New-Source 'over-four-gib.bin' (4GB + 4097) -Sparse | Out-Null
$sparse = New-Source 'sparse-with-holes.bin' (8MB) -Sparse       # a hole of 6 MiB inside (cloned holes and all: A20)
$integrity = Join-Path $src 'integrity.bin'
New-Item -ItemType File $integrity | Out-Null
$integrityRefused = $null
try { Set-FileIntegrity -FileName $integrity -Enable $true }     # only an empty file's setting can change
catch { $integrityRefused = $_ }
if ($integrityRefused -and $Kind -eq 'DevDrive') {
  Write-Host "integrity.bin: left out, this Dev Drive refuses integrity streams ($integrityRefused)"
  Remove-Item -LiteralPath $integrity
} else {
  if ($integrityRefused) { throw $integrityRefused }
  # Written into the same file (FileMode.Open): WriteAllBytes would create it again and might drop the setting.
  $stream = [System.IO.File]::Open($integrity, 'Open', 'Write')
  try { $bytes = [byte[]](1..100000 | ForEach-Object { $_ % 251 }); $stream.Write($bytes, 0, $bytes.Length) } finally { $stream.Dispose() }
  # Sources that do not hold the property their case is about would let the case pass without testing it.
  if (-not (Get-FileIntegrity -FileName $integrity).Enabled) { $failures.Add("$integrity has no integrity streams: its case tests nothing") }
}
if (-not ((Get-Item -LiteralPath $sparse).Attributes -band [System.IO.FileAttributes]::SparseFile)) { $failures.Add("$sparse is not sparse: its case tests nothing") }
Get-ChildItem $src | Format-Table Name, Length, Attributes | Out-String | Write-Host

# 3. One project, two builds: CloneCopy (guard, every clone read back) and MSBuild's Copy. The project names the version
# packed (CloneCopyPackages.psm1, checked on Linux by scripts/check-windows-scripts.sh).
$project = New-CloneCopyComparisonProject -Directory $work -Packages $Packages
Push-Location $work
try {
  $clonecopyLog = Join-Path $logs 'clonecopy.log'; $msbuildLog = Join-Path $logs 'msbuild.log'
  dotnet build $project -nologo -v:d -tl:off -p:Out="$work\out-clonecopy" -p:CloneCopyRequireClones=error -p:CloneCopyVerifyClones=true > $clonecopyLog
  if ($LASTEXITCODE -ne 0) { $failures.Add("the CloneCopy build failed (the guard, CLC008, or worse): see $clonecopyLog in the job's artifacts"); Get-Content -Tail 40 $clonecopyLog | Write-Host }
  Select-String -Path $clonecopyLog -Pattern 'CloneCopy(\s\(\w+\))?: |CLC00' | ForEach-Object { $_.Line.Trim() } | Write-Host
  dotnet build $project -nologo -v:n -tl:off -p:Out="$work\out-msbuild" -p:DisableCloneCopy=true > $msbuildLog
  if ($LASTEXITCODE -ne 0) { $failures.Add("MSBuild's Copy build failed: see $msbuildLog in the job's artifacts"); Get-Content -Tail 40 $msbuildLog | Write-Host }
} finally { Pop-Location }

# 4. Each pair compared; then reference counts.
foreach ($source in Get-ChildItem $src -File) {
  $clone = Get-Item -LiteralPath (Join-Path "$work\out-clonecopy" $source.Name) -ErrorAction SilentlyContinue
  $copy = Get-Item -LiteralPath (Join-Path "$work\out-msbuild" $source.Name) -ErrorAction SilentlyContinue
  if (-not $clone -or -not $copy) { $failures.Add("$($source.Name): missing (clone: $([bool]$clone), copy: $([bool]$copy))"); continue }
  $checks = [ordered]@{
    'SHA-256' = { param($f) (Get-FileHash -Algorithm SHA256 -LiteralPath $f.FullName).Hash }
    'last-write time' = { param($f) $f.LastWriteTimeUtc.Ticks }
    'attributes' = { param($f) [int]$f.Attributes }
    'sparse flag' = { param($f) [bool]($f.Attributes -band [System.IO.FileAttributes]::SparseFile) }
    'integrity' = { param($f) (Get-FileIntegrity -FileName $f.FullName).Enabled }
  }
  foreach ($check in $checks.GetEnumerator()) {
    $a = & $check.Value $clone; $b = & $check.Value $copy
    if ("$a" -ne "$b") { $failures.Add("$($source.Name): $($check.Key) differs: CloneCopy $a, MSBuild's Copy $b") }
  }
  # A clone's clusters are shared with its source (2 or more references; ReFS counts late, so wait a little); the copy's
  # are its own. A 1-byte file may hold no extent to count.
  if ($source.Length -ge 4096) {
    $deadline = (Get-Date).AddSeconds(60)
    do { $counts = Get-RefCounts $clone.FullName; $shared = $counts.Count -gt 0 -and ($counts | Measure-Object -Maximum).Maximum -ge 2 } while (-not $shared -and (Get-Date) -lt $deadline -and -not (Start-Sleep -Seconds 2))
    if (-not $shared) { $failures.Add("$($source.Name): the clone shares no cluster (reference counts $($counts -join ', '))") }
    $copyCounts = Get-RefCounts $copy.FullName
    # Where CopyFile clones (Windows 11 24H2, Server 2025) MSBuild's copy shares clusters too: said, not failed.
    if (@($copyCounts | Where-Object { $_ -ge 2 }).Count -gt 0) { Write-Host "$($source.Name): MSBuild's copy shares clusters too (CopyFile clones here: $($copyCounts -join ', '))" }
  }
  Write-Host "$($source.Name): compared"
}

# The step's files go, pass or fail: the next steps need the volume's room (and the host's, for an expandable VHDX).
Remove-Item -Recurse -Force -LiteralPath $work
Write-DiskReport -Step "the comparison with MSBuild's Copy"

if ($failures.Count -gt 0) {
  $failures | ForEach-Object { Write-Host "FAIL: $_" }
  exit 1
}
Write-Host 'Every clone matches MSBuild''s Copy of the same file.'
