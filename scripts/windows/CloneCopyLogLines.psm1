# CloneCopy's per-file lines in a `dotnet build -v:d` log, and what the clone check (assert-clones.ps1) requires of them
# on a Windows job. Each expectation follows a rule of the product, cited beside it, so that a first run on a hosted
# image fails only where CloneCopy breaks its own rule. The reading and the verdicts are apart from fsutil, so
# scripts/check-windows-scripts.sh runs them on Linux against sample log text with known answers.

# The per-file lines (src/CloneCopy/Messages/CloneCopyTexts.resx: OutcomeCloned, OutcomeCopied, OutcomeKernelCopied,
# ClonedInPlaceOf*), one record each: Outcome (cloned or copied), Path (the destination), Bytes, Reason (empty for a
# clone). MSBuild indents messages and Windows ends lines with CR: both are allowed around a line.
#   CloneCopy: cloned "R:\...\Lib.dll" (4608 bytes not written).
#   CloneCopy: copied "R:\...\Lib.dll" (4608 bytes): Windows' CopyFile clones here itself.
function ConvertFrom-CloneCopyFileLines {
  param([Parameter(Mandatory)] [AllowEmptyString()] [string] $Text)
  $pattern = '(?m)CloneCopy: (?<outcome>cloned|copied) "(?<path>[^"]+)"(?: in place of a (?:hard|symbolic) link| in the kernel)? \((?<bytes>\d+) bytes(?: not written)?\)(?:: (?<reason>.*?))?\.\r?$'
  $records = foreach ($match in [regex]::Matches($Text, $pattern)) {
    [pscustomobject]@{
      Outcome = $match.Groups['outcome'].Value
      Path = $match.Groups['path'].Value
      Bytes = [long]$match.Groups['bytes'].Value
      Reason = $match.Groups['reason'].Value
    }
  }
  return @($records)
}

# The reasons (CloneCopyTexts.resx) an expectation allows besides a clone.
$script:EmptyFile = 'empty file'                                              # ReasonEmptyFile
$script:CopyFileClonesHere = "Windows' CopyFile clones here itself"            # ReasonCopyFileClonesHere
$script:CopyFileAskedAndCopied = "Windows' CopyFile was asked whether it clones on this volume, and copied this file" # ReasonCopyFileCopiedWhenAsked

# The first Windows build whose CopyFile may clone: src/CloneCopy/Platform/Windows/WindowsBlockCloner.cs,
# FirstBuildWhoseCopyFileMayClone ("Starting with the Windows 11 Moment 5 update ... and later releases of Windows client
# and Windows Server builds", Block Cloning; Moment 5 is an update of 22621).
$script:FirstBuildWhoseCopyFileMayClone = 22621

# What a build of samples/Repository on a ReFS volume or Dev Drive must show, by the product's rules:
#  - with the CI guard (CloneCopyRequireClones set): BlockClone, every file cloned by CloneCopy itself. docs/windows.md,
#    "Where CopyFile clones": "With CloneCopyRequireClones set ... CloneCopy clones every file itself even where CopyFile
#    clones ... Those files never ask the CopyFile question either" (CloneCopySettings sets ClonesMustBeKnown; ClonerTransfer
#    .TryClone then calls CloneItself, mayLeaveToCopyFile: false; held by CopyFileVerdictCases);
#  - without it, on a build before 22621 (Windows Server 2022 is 20348): BlockClone. "On a build before 22621 nothing is
#    asked: CloneCopy clones" (same section);
#  - without it, from 22621 on (Windows Server 2025 is 26100): CopyFileClones. The first file of 64 KiB to 4 MiB asks
#    whether CopyFile clones on the volume (same section), and CopyFile clones there by Microsoft's Block Cloning page.
function Get-CloneExpectation {
  param([Parameter(Mandatory)] [int] $OsBuild, [switch] $Guarded)
  if ($Guarded) { return 'BlockClone' }
  if ($OsBuild -lt $script:FirstBuildWhoseCopyFileMayClone) { return 'BlockClone' }
  return 'CopyFileClones'
}

# Why the per-file lines FILES (ConvertFrom-CloneCopyFileLines) do not show EXPECT; and the files whose reference counts
# must then be read. Returns @{ Failures = [string[]]; Checked = [records]; AskedAndCopied = [records] }.
#  BlockClone: every file cloned, or copied as empty (an empty source is never cloned: ClonerTransfer.TryClone,
#    NotClonedReason.EmptyFile); no file left to CopyFile and no CopyFile question (see Get-CloneExpectation).
#  CopyFileClones: every file cloned (by CloneCopy before the answer, or the asking file, CopyFile's own clone), left to
#    CopyFile because it clones here, or copied as empty; at least one left to CopyFile. A file whose question CopyFile
#    answered with a copy is returned in AskedAndCopied (the caller reads its clusters: shared means the question was
#    answered wrong, a CloneCopy defect; not shared means this image's CopyFile does not clone, against the Block Cloning page).
#  Either: at least one file of a cluster (4 KiB) or more to read; any other reason fails, with its count and an example.
function Test-CloneLines {
  param([AllowEmptyCollection()] [object[]] $Files = @(), [Parameter(Mandatory)] [ValidateSet('BlockClone', 'CopyFileClones')] [string] $Expect)
  $failures = [System.Collections.Generic.List[string]]::new()
  $cloned = @($Files | Where-Object Outcome -eq 'cloned')
  $byCopyFile = @($Files | Where-Object { $_.Outcome -eq 'copied' -and $_.Reason -eq $script:CopyFileClonesHere })
  $asked = @($Files | Where-Object { $_.Outcome -eq 'copied' -and $_.Reason -eq $script:CopyFileAskedAndCopied })
  $allowed = if ($Expect -eq 'BlockClone') { @($script:EmptyFile) } else { @($script:EmptyFile, $script:CopyFileClonesHere) }
  # The two CopyFile reasons have their own verdicts below.
  $other = @($Files | Where-Object { $_.Outcome -eq 'copied' -and $allowed -notcontains $_.Reason -and $_.Reason -notin @($script:CopyFileClonesHere, $script:CopyFileAskedAndCopied) })
  foreach ($group in $other | Group-Object Reason) {
    $failures.Add("$($group.Count) files copied ($($group.Name)), which $Expect does not allow, e.g. $($group.Group[0].Path)")
  }

  if ($Expect -eq 'BlockClone') {
    if ($byCopyFile.Count -gt 0) { $failures.Add("$($byCopyFile.Count) files left to CopyFile, e.g. $($byCopyFile[0].Path): with the guard, or before build 22621, CloneCopy clones every file itself") }
    if ($asked.Count -gt 0) { $failures.Add("the CopyFile question was asked ($($asked[0].Path)): with the guard, or before build 22621, it never is") }
    $checked = $cloned
  } else {
    if ($byCopyFile.Count -eq 0) { $failures.Add('no file was left to CopyFile ("Windows'' CopyFile clones here itself"): CloneCopy did not find that CopyFile clones on this volume') }
    if ($asked.Count -gt 0) { $failures.Add("CopyFile was asked whether it clones here and copied $($asked[0].Path): its clusters, read next, say whether CopyFile did not clone on this image or the question was answered wrong") }
    $checked = @($cloned) + @($byCopyFile)
  }

  if (@($checked | Where-Object { $_.Bytes -ge 4096 }).Count -eq 0) { $failures.Add('no file of a cluster (4 KiB) or more to read reference counts of') }
  # Where the question must never be asked (BlockClone), that it was is the failure; who answered wrong matters only where
  # it must be asked.
  return @{ Failures = @($failures); Checked = @($checked); AskedAndCopied = @(if ($Expect -eq 'CopyFileClones') { $asked }) }
}

Export-ModuleMember -Function ConvertFrom-CloneCopyFileLines, Get-CloneExpectation, Test-CloneLines
