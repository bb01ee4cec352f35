# samples/Repository built on a ReFS volume or Dev Drive with CloneCopy, its package cache there too (a clone needs
# source and destination on one volume), with the guard (CloneCopyRequireClones=error: a file copied instead of
# cloned fails the build) and CloneCopyVerifyClones=true (every clone read back); then every file the log says was
# cloned is read back through fsutil (assert-clones.ps1). CloneCopy is packed into PACKAGES first. The sample, its packages and its outputs are deleted at the
# end; the build log goes to artifacts/clones-on-disk-build.log.
#
#   pwsh scripts/windows/clones-on-disk.ps1 -Volume R: -Expect BlockClone -Packages artifacts/packages
param(
  [Parameter(Mandatory)] [string] $Volume,
  [Parameter(Mandatory)] [ValidateSet('BlockClone', 'CopyFileClones')] [string] $Expect,
  [Parameter(Mandatory)] [string] $Packages
)
$ErrorActionPreference = 'Stop'
Import-Module (Join-Path $PSScriptRoot 'CloneCopyPackages.psm1')
Import-Module (Join-Path $PSScriptRoot 'CloneCopyDisk.psm1')
Invoke-CloneCopyPack -Packages $Packages
$repo = (Resolve-Path (Join-Path (Join-Path $PSScriptRoot '..') '..')).Path
$work = Join-Path ($Volume.TrimEnd('\') + '\') 'clone-check'
Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue
try {
  # The sample bound to the version packed, its feed a copy of the packages on the volume.
  New-Item -ItemType Directory -Force $work | Out-Null
  Copy-Item -Recurse -LiteralPath $Packages -Destination (Join-Path $work 'packages')
  Copy-CloneCopySample -Name Repository -Destination "$work\samples\Repository" -Packages "$work\packages" | Out-Null
  $env:NUGET_PACKAGES = "$work\nuget-packages"
  $log = "$work\build.log"
  dotnet build "$work\samples\Repository\Sample.slnx" -v:d -nologo -m:1 -tl:off -p:CloneCopyRequireClones=error -p:CloneCopyVerifyClones=true > $log
  $built = $LASTEXITCODE
  # The log goes with the job's artifacts, so that a failure can be read after the run.
  New-Item -ItemType Directory -Force (Join-Path $repo 'artifacts') | Out-Null
  Copy-Item -LiteralPath $log (Join-Path (Join-Path $repo 'artifacts') 'clones-on-disk-build.log')
  Select-String -Path $log -Pattern '^\s*CloneCopy(\s\(\w+\))?: |CLC00' | ForEach-Object { $_.Line.Trim() } | Select-Object -First 60 | Write-Host
  if ($built -ne 0) { Get-Content -Tail 50 $log | Write-Host; Write-Host "clones-on-disk: FAILED the build (exit $built; CLC005 is the guard)"; exit 1 }
  pwsh (Join-Path $PSScriptRoot 'assert-clones.ps1') -Log $log -Expect $Expect
  $asserted = $LASTEXITCODE
} finally {
  Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue
  Write-DiskReport -Step 'the clones on disk'
}
exit $asserted
