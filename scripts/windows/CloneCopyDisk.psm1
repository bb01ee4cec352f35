# Disk space and sparse files for the Windows jobs: where the VHDX goes, what each step leaves, and whether a sparse
# test file really has its hole. The parsing and the choices are apart from fsutil and CIM, so
# scripts/check-windows-scripts.sh runs them on Linux against known answers.

# The folder every job keeps its VHDX in, on whichever drive it chose; the disk report finds the VHDX there again.
$script:VhdFolderName = 'clonecopy-ci'

# The host's fixed drives and their free bytes (Win32_LogicalDisk, DriveType 3 = local disk), e.g. C: and, where the
# image has one, D:. Hosted images differ: Azure's agents promise about 10 GB for sources and outputs on D:, GitHub's
# windows-2022 has D: and C:, its windows-2025 no longer has D: (docs/development.md, "CI jobs on Windows and macOS: disk").
function Get-HostDrives {
  return @(Get-CimInstance -ClassName Win32_LogicalDisk -Filter 'DriveType = 3' |
    ForEach-Object { [pscustomobject]@{ Name = $_.DeviceID.TrimEnd(':'); Free = [long]$_.FreeSpace; Size = [long]$_.Size } })
}

# The drive with the most free space, when it has at least NeedBytes; else a throw that names every drive's space,
# so that a job stops before it writes, saying why, instead of failing later with "not enough space on the disk".
# Drives named in Exclude (the ReFS volume itself, once made) are not candidates.
function Select-VhdDrive {
  param([Parameter(Mandatory)] [object[]] $Drives, [Parameter(Mandatory)] [long] $NeedBytes, [string[]] $Exclude = @())
  $candidates = @($Drives | Where-Object { $Exclude -notcontains $_.Name } | Sort-Object -Property Free -Descending)
  $said = ($Drives | ForEach-Object { '{0}: {1:N1} GB free' -f $_.Name, ($_.Free / 1GB) }) -join ', '
  if ($candidates.Count -eq 0 -or $candidates[0].Free -lt $NeedBytes) {
    throw ('no drive has {0:N1} GB free for the VHDX ({1})' -f ($NeedBytes / 1GB), $said)
  }
  return $candidates[0].Name
}

# The VHDX's path on a drive: X:\clonecopy-ci\NAME.vhdx.
function Get-VhdPath {
  param([Parameter(Mandatory)] [string] $Drive, [Parameter(Mandatory)] [string] $Name)
  return '{0}:\{1}\{2}.vhdx' -f $Drive.TrimEnd(':'), $script:VhdFolderName, $Name
}

# The allocated ranges `fsutil sparse queryrange FILE` prints, one a line ("sparse range: Offset: 0x0  Length:
# 0x100000" on an English Windows). Only the two hex numbers of a line are read: the words around them are
# translated on other Windows languages. Each range: Offset and Length in bytes.
function ConvertFrom-SparseRangeText {
  param([Parameter(Mandatory)] [AllowEmptyString()] [string] $Text)
  $ranges = foreach ($line in $Text -split "`r?`n") {
    $numbers = @([regex]::Matches($line, '0x([0-9a-fA-F]+)') | ForEach-Object { [Convert]::ToInt64($_.Groups[1].Value, 16) })
    if ($numbers.Count -eq 2) { [pscustomobject]@{ Offset = $numbers[0]; Length = $numbers[1] } }
  }
  return @($ranges)
}

# The allocated ranges of a file, through fsutil; a failing fsutil throws.
function Get-SparseRanges {
  param([Parameter(Mandatory)] [string] $Path)
  $output = fsutil sparse queryrange "$Path" | Out-String
  if ($LASTEXITCODE -ne 0) { throw "fsutil sparse queryrange $Path failed ($LASTEXITCODE): $output" }
  return ConvertFrom-SparseRangeText $output
}

# Why a file of LENGTH bytes, written at its head and its tail with a hole between, is not what its case needs; empty
# when it is: exactly two allocated ranges, the first at offset 0, the second ending at the end of the file (rounded up
# to a cluster), with less allocated than the file's length. The sparse flag alone proves nothing: a file marked sparse
# whose zeros were written has one range and allocates all of it.
function Test-HeadAndTailOnly {
  param([AllowEmptyCollection()] [object[]] $Ranges = @(), [Parameter(Mandatory)] [long] $Length)
  if ($Ranges.Count -ne 2) { return "$($Ranges.Count) allocated ranges, not 2 (the head and the tail around one hole)" }
  $allocated = ($Ranges | Measure-Object -Property Length -Sum).Sum
  if ($Ranges[0].Offset -ne 0) { return "its first allocated range starts at $($Ranges[0].Offset), not 0" }
  if ($Ranges[1].Offset + $Ranges[1].Length -lt $Length) { return "its last allocated range ends at $($Ranges[1].Offset + $Ranges[1].Length), before its end ($Length)" }
  if ($allocated -ge $Length) { return "$allocated bytes allocated of ${Length}: no hole" }
  return ''
}

# One line per drive and per VHDX, for the log after each step: what the job has used so far and what is left.
function Write-DiskReport {
  param([Parameter(Mandatory)] [string] $Step)
  $drives = Get-HostDrives
  $line = ($drives | ForEach-Object { '{0}: {1:N1} of {2:N1} GB free' -f $_.Name, ($_.Free / 1GB), ($_.Size / 1GB) }) -join '; '
  $vhds = @($drives | ForEach-Object { Get-ChildItem -ErrorAction SilentlyContinue -Path ('{0}:\{1}\*.vhdx' -f $_.Name, $script:VhdFolderName) })
  $sizes = ($vhds | ForEach-Object { '{0} {1:N2} GB' -f $_.FullName, ($_.Length / 1GB) }) -join '; '
  Write-Host "disk after ${Step}: $line; VHDX on the host: $sizes"
}

Export-ModuleMember -Function Get-HostDrives, Select-VhdDrive, Get-VhdPath, ConvertFrom-SparseRangeText, Get-SparseRanges, Test-HeadAndTailOnly, Write-DiskReport
