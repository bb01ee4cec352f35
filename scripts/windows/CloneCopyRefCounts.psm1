# Reading ReFS reference counts, for the Windows jobs' checks that clones are real (assert-clones.ps1,
# compare-with-msbuild-copy.ps1). The parsing and the verdict are apart from fsutil, so scripts/check-windows-scripts.sh
# runs them on Linux against known answers: the first run on Windows should fail only on what Windows says.

# The reference count of each extent in `fsutil file queryExtentsAndRefCounts` output ("... Ref: 0x2"), in order.
function ConvertFrom-RefCountText {
  param([Parameter(Mandatory)] [AllowEmptyString()] [string] $Text)
  return @([regex]::Matches($Text, 'Ref:\s*0x([0-9a-fA-F]+)') | ForEach-Object { [Convert]::ToInt64($_.Groups[1].Value, 16) })
}

# The reference counts of a file's extents, through fsutil (an administrator's command); a failing fsutil throws,
# never reads as "no extent shared".
function Get-RefCounts {
  param([Parameter(Mandatory)] [string] $Path)
  $output = fsutil file queryExtentsAndRefCounts "$Path" | Out-String
  if ($LASTEXITCODE -ne 0) { throw "fsutil file queryExtentsAndRefCounts $Path failed ($LASTEXITCODE): $output" }
  return ConvertFrom-RefCountText $output
}

# Shared: every extent at 2 or more, except that a last extent of the file's partial tail cluster may stay at 1 (seen
# by others on ReFS after CopyFile and after a cluster-rounded block clone alike; not documented either way), as long
# as some extent before it is shared. No extent at all is not shared.
function Test-AllExtentsShared {
  param([AllowEmptyCollection()] [long[]] $Counts = @(), [Parameter(Mandatory)] [long] $Length)
  if ($Counts.Count -eq 0) { return $false }
  $body = if ($Counts.Count -gt 1 -and ($Length % 4096) -ne 0) { $Counts[0..($Counts.Count - 2)] } else { $Counts }
  # Counted, not negated: `-not (0)` is true, so a lone extent at 0 once read as shared.
  return @($body | Where-Object { $_ -lt 2 }).Count -eq 0
}

Export-ModuleMember -Function ConvertFrom-RefCountText, Get-RefCounts, Test-AllExtentsShared
