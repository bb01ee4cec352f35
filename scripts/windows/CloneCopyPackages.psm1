# What the Windows jobs need of a packed CloneCopy, as scripts/lib/packages.sh gives it to the Linux lanes: the version
# packed (MinVer: 1.2.3 from a tag, 1.0.0-alpha.0.N between tags, never a fixed number), a copy of a sample bound to
# that package, and a project that uses it. scripts/check-windows-scripts.sh runs these functions under PowerShell on
# Linux, on the packages the other lanes packed, and restores what they write: the Windows jobs never ran, and their
# first run should not fail on a version or a path.

# The version of the one CloneCopy package in a folder ("1.0.0-alpha.0.97"), from its file name, as NuGet wrote it.
function Get-PackedCloneCopyVersion {
  param([Parameter(Mandatory)] [string] $Packages)
  # A digit after "CloneCopy." leaves out the tool's package, CloneCopy.BuildCompare.*.
  $found = @(Get-ChildItem -LiteralPath $Packages -Filter 'CloneCopy.*.nupkg' | Where-Object { $_.Name -match '^CloneCopy\.\d' })
  if ($found.Count -ne 1) { throw "$Packages holds $($found.Count) CloneCopy packages; pack exactly one there first" }
  return $found[0].Name.Substring('CloneCopy.'.Length) -replace '\.nupkg$', ''
}

# Packs src/CloneCopy into PACKAGES (Release), after removing the CloneCopy packages of other commits from it, as
# scripts/lib/packages.sh's pack_clonecopy does: Get-PackedCloneCopyVersion then finds this commit's one.
function Invoke-CloneCopyPack {
  param([Parameter(Mandatory)] [string] $Packages)
  New-Item -ItemType Directory -Force $Packages | Out-Null
  Get-ChildItem -LiteralPath $Packages -Filter 'CloneCopy.*.nupkg' | Where-Object { $_.Name -match '^CloneCopy\.\d' } | Remove-Item
  $project = Join-Path (Join-Path (Join-Path (Join-Path $PSScriptRoot '..') '..') 'src') 'CloneCopy'
  dotnet pack $project -c Release -o $Packages -nologo | Write-Host
  if ($LASTEXITCODE -ne 0) { throw "dotnet pack $project failed ($LASTEXITCODE)" }
}

# samples/NAME copied to DESTINATION as a user would set it up: its NuGet.config's local feed is PACKAGES, and the
# version placeholder X.Y.Z (global.json, the projects' Sdk elements) is the packed version, which it returns.
function Copy-CloneCopySample {
  param([Parameter(Mandatory)] [string] $Name, [Parameter(Mandatory)] [string] $Destination, [Parameter(Mandatory)] [string] $Packages)
  $version = Get-PackedCloneCopyVersion $Packages
  $feed = (Resolve-Path -LiteralPath $Packages).Path
  $sample = Join-Path (Join-Path (Join-Path $PSScriptRoot '..') '..') (Join-Path 'samples' $Name)
  Remove-Item -Recurse -Force -LiteralPath $Destination -ErrorAction SilentlyContinue
  New-Item -ItemType Directory -Force (Split-Path -Parent $Destination) | Out-Null
  Copy-Item -Recurse -LiteralPath $sample -Destination $Destination
  $config = Join-Path $Destination 'NuGet.config'
  Set-Content -NoNewline -LiteralPath $config -Value (Get-Content -Raw -LiteralPath $config).Replace('../../artifacts/packages', $feed)
  foreach ($file in Get-ChildItem -Recurse -File -LiteralPath $Destination | Where-Object { $_.Name -eq 'global.json' -or $_.Extension -eq '.csproj' }) {
    Set-Content -NoNewline -LiteralPath $file.FullName -Value (Get-Content -Raw -LiteralPath $file.FullName).Replace('"X.Y.Z"', """$version""")
  }
  $left = @(Get-ChildItem -Recurse -File -LiteralPath $Destination | Where-Object { $_.Name -eq 'global.json' -or $_.Extension -eq '.csproj' } |
    Select-String -SimpleMatch 'X.Y.Z')
  if ($left.Count -gt 0) { throw "$Destination still names the version X.Y.Z: $($left[0].Path)" }
  return $version
}

# The project of the MSBuild's Copy comparison (compare-with-msbuild-copy.ps1) in DIRECTORY: an empty C# library whose
# build ends with a Copy of src\*.bin to $(Out), with CloneCopy as an additional SDK of the packed version (global.json), restored from PACKAGES.
function New-CloneCopyComparisonProject {
  param([Parameter(Mandatory)] [string] $Directory, [Parameter(Mandatory)] [string] $Packages)
  $version = Get-PackedCloneCopyVersion $Packages
  $feed = (Resolve-Path -LiteralPath $Packages).Path
  $sdk = (dotnet --version | Out-String).Trim()
  New-Item -ItemType Directory -Force $Directory | Out-Null
  # .csproj, not .proj: Microsoft.NET.Sdk picks its language targets by the extension, and a .proj fails to build
  # (MSB4057, no CreateManifestResourceNames): the first defect this check found in a job that never ran.
  $project = Join-Path $Directory 'compare.csproj'
  Set-Content -LiteralPath $project -Value @'
<Project Sdk="Microsoft.NET.Sdk">
  <Sdk Name="CloneCopy" />
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <Target Name="CopyThem" AfterTargets="Build">
    <ItemGroup><Source Include="src\*.bin" /></ItemGroup>
    <Copy SourceFiles="@(Source)" DestinationFolder="$(Out)" />
  </Target>
</Project>
'@
  Set-Content -LiteralPath (Join-Path $Directory 'global.json') -Value @"
{ "sdk": { "version": "$sdk", "rollForward": "latestFeature" }, "msbuild-sdks": { "CloneCopy": "$version" } }
"@
  Set-Content -LiteralPath (Join-Path $Directory 'NuGet.config') -Value @"
<configuration><packageSources><clear /><add key="local" value="$feed" /><add key="nuget.org" value="https://api.nuget.org/v3/index.json" /></packageSources></configuration>
"@
  return $project
}

Export-ModuleMember -Function Invoke-CloneCopyPack, Get-PackedCloneCopyVersion, Copy-CloneCopySample, New-CloneCopyComparisonProject
