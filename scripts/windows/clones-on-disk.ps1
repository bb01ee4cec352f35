# samples/Repository built twice on a ReFS volume or Dev Drive with CloneCopy, each from its own copy of the sample with
# its own package cache there too (a clone needs source and destination on one volume), CloneCopyVerifyClones=true (every
# clone read back) both times:
#   guarded    with the CI guard (CloneCopyRequireClones=error: a file copied instead of cloned fails the build), which
#              makes CloneCopy clone every file itself: BlockClone on every Windows (Get-CloneExpectation -Guarded);
#   unguarded  as a user builds: BlockClone before build 22621, CopyFileClones from it on, where the first file of
#              64 KiB to 4 MiB asks whether CopyFile clones and later files are left to it (Get-CloneExpectation).
# After each build every file the log says was cloned, or left to CopyFile, is read back through fsutil
# (assert-clones.ps1). EXPECT is what the job says its image gives the unguarded build; it must be what the product's rule
# gives for the running Windows build, else the image is not the one the job was written for and the step says so first.
# CloneCopy is packed into PACKAGES first. The samples, their packages and outputs are deleted at the end; the build logs
# go to artifacts/clones-on-disk-guarded.log and artifacts/clones-on-disk-unguarded.log.
#
#   pwsh scripts/windows/clones-on-disk.ps1 -Volume R: -Expect BlockClone -Packages artifacts/packages       # Server 2022
#   pwsh scripts/windows/clones-on-disk.ps1 -Volume R: -Expect CopyFileClones -Packages artifacts/packages   # Server 2025
param(
  [Parameter(Mandatory)] [string] $Volume,
  [Parameter(Mandatory)] [ValidateSet('BlockClone', 'CopyFileClones')] [string] $Expect,
  [Parameter(Mandatory)] [string] $Packages
)
$ErrorActionPreference = 'Stop'
Import-Module (Join-Path $PSScriptRoot 'CloneCopyPackages.psm1')
Import-Module (Join-Path $PSScriptRoot 'CloneCopyDisk.psm1')
Import-Module (Join-Path $PSScriptRoot 'CloneCopyLogLines.psm1')

# .NET reports the real build here (RtlGetVersion), as CloneCopy reads it (WindowsOsBuild).
$osBuild = [Environment]::OSVersion.Version.Build
$byRule = Get-CloneExpectation -OsBuild $osBuild
Write-Host "Windows build ${osBuild}: without the guard the rule gives $byRule; the job expects $Expect"
if ($byRule -ne $Expect) {
  Write-Host "clones-on-disk: FAILED this image runs Windows build $osBuild, where CloneCopy's rule gives $byRule without the guard, not the $Expect the job was written for"
  exit 1
}

Invoke-CloneCopyPack -Packages $Packages
$repo = (Resolve-Path (Join-Path (Join-Path $PSScriptRoot '..') '..')).Path
$artifacts = New-Item -ItemType Directory -Force (Join-Path $repo 'artifacts')
$work = Join-Path ($Volume.TrimEnd('\') + '\') 'clone-check'
Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue
$failed = @()
try {
  foreach ($build in @(@{ Name = 'guarded'; Guard = $true }, @{ Name = 'unguarded'; Guard = $false })) {
    $name = $build.Name
    # Not $expect: PowerShell's names ignore case, and $Expect is this script's parameter.
    $buildExpects = Get-CloneExpectation -OsBuild $osBuild -Guarded:$build.Guard
    $folder = Join-Path $work $name
    # The sample bound to the version packed, its feed a copy of the packages on the volume, its own package cache.
    New-Item -ItemType Directory -Force $folder | Out-Null
    Copy-Item -Recurse -LiteralPath $Packages -Destination (Join-Path $folder 'packages')
    Copy-CloneCopySample -Name Repository -Destination "$folder\samples\Repository" -Packages "$folder\packages" | Out-Null
    $env:NUGET_PACKAGES = "$folder\nuget-packages"
    $log = Join-Path $artifacts "clones-on-disk-$name.log"
    $properties = @('-p:CloneCopyVerifyClones=true') + @(if ($build.Guard) { '-p:CloneCopyRequireClones=error' })
    Write-Host "== $name build ($($properties -join ' ')), expecting $buildExpects"
    dotnet build "$folder\samples\Repository\Sample.slnx" -v:d -nologo -m:1 -tl:off @properties > $log
    $built = $LASTEXITCODE
    Select-String -Path $log -Pattern '^\s*CloneCopy(\s\(\w+\))?: |CLC00' | ForEach-Object { $_.Line.Trim() } | Select-Object -First 60 | Write-Host
    if ($built -ne 0) {
      Get-Content -Tail 50 $log | Write-Host
      Write-Host "clones-on-disk: FAILED the $name build (exit $built$(if ($build.Guard) { '; CLC005 is the guard' }))"
      $failed += $name
      continue
    }
    pwsh -NoProfile -File (Join-Path $PSScriptRoot 'assert-clones.ps1') -Log $log -Expect $buildExpects
    if ($LASTEXITCODE -ne 0) { $failed += $name }
  }
} finally {
  Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue
  Write-DiskReport -Step 'the clones on disk'
}
if ($failed.Count -gt 0) { Write-Host "clones-on-disk: FAILED $($failed -join ', ')"; exit 1 }
Write-Host "clones-on-disk: passed (guarded: BlockClone; unguarded: $Expect; Windows build $osBuild)"
exit 0
