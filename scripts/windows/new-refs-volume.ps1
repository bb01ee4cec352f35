# Makes a ReFS volume (or a Dev Drive, -Kind DevDrive) on a dynamically expanding VHDX and gives it a drive letter,
# with the tools a hosted Azure Pipelines Windows agent has: diskpart's virtual disk commands (part of Windows,
# no Hyper-V module needed) and, for a Dev Drive, the Storage module's Format-Volume -DevDrive.
#
#   pwsh scripts/windows/new-refs-volume.ps1 -Name refs -Letter R [-Kind DevDrive] [-MaximumMB 20480] [-HostFreeGB 16]
#
# The VHDX goes to X:\clonecopy-ci\NAME.vhdx on the host's fixed drive with the most free space, which must have
# HostFreeGB free (the job's peak, docs/development.md "CI jobs on Windows and macOS: disk"): not the agent's temporary
# folder, whose D: Azure's hosted agents promise only about 10 GB of, and which GitHub's windows-2025 no longer has.
# Microsoft's Dev Drive page asks for at least 50 GB (give -MaximumMB 53248 for one); a dynamically expanding VHDX takes
# on the host disk only what is written to it. Stops with an error (exit code 1) unless the volume is there, formatted as asked.
param(
  [Parameter(Mandatory)] [string] $Name,
  [Parameter(Mandatory)] [char] $Letter,
  [ValidateSet('ReFS', 'DevDrive')] [string] $Kind = 'ReFS',
  [int] $MaximumMB = 20480,
  [int] $HostFreeGB = 16
)
$ErrorActionPreference = 'Stop'
$DevDrive = $Kind -eq 'DevDrive'
Import-Module (Join-Path $PSScriptRoot 'CloneCopyDisk.psm1')

$drives = Get-HostDrives
$drives | ForEach-Object { Write-Host ('{0}: {1:N1} GB free of {2:N1} GB' -f $_.Name, ($_.Free / 1GB), ($_.Size / 1GB)) }
$drive = Select-VhdDrive -Drives $drives -NeedBytes ([long]$HostFreeGB * 1GB) -Exclude @("$Letter")
$Vhd = Get-VhdPath -Drive $drive -Name $Name
New-Item -ItemType Directory -Force (Split-Path -Parent $Vhd) | Out-Null
Write-Host "the VHDX: $Vhd (expandable, at most $MaximumMB MB)"

function Invoke-DiskPart([string[]] $Commands) {
  $script = [IO.Path]::ChangeExtension($Vhd, '.diskpart.txt')
  Set-Content -Path $script -Value $Commands -Encoding ascii
  diskpart /s $script | Write-Host
  if ($LASTEXITCODE -ne 0) { throw "diskpart failed with exit code $LASTEXITCODE running: $($Commands -join '; ')" }
}

# A plain ReFS volume is formatted by diskpart itself; a Dev Drive can only be made by a format that asks for it,
# so diskpart leaves that partition unformatted and Format-Volume -DevDrive formats it.
$commands = @(
  "create vdisk file=`"$Vhd`" maximum=$MaximumMB type=expandable",
  "select vdisk file=`"$Vhd`"",
  "attach vdisk",
  "create partition primary"
)
if (-not $DevDrive) { $commands += "format fs=refs quick label=CloneCopyReFS" }
$commands += "assign letter=$Letter"
Invoke-DiskPart $commands

if ($DevDrive) {
  Format-Volume -DriveLetter $Letter -DevDrive -NewFileSystemLabel CloneCopyDevDrive -Confirm:$false -Force | Out-Null
}

$volume = Get-Volume -DriveLetter $Letter
Write-Host "$($Letter): $($volume.FileSystem), $([math]::Round($volume.Size / 1GB, 1)) GB"
if ($volume.FileSystem -ne 'ReFS') { Write-Error "$($Letter): is $($volume.FileSystem), not ReFS"; exit 1 }
if ($DevDrive) {
  # For the log: whether Windows sees a Dev Drive there, and its filters. Its wording is not documented, so it
  # is shown, not matched; Format-Volume -DevDrive above stops the step if it could not make one.
  fsutil devdrv query "$($Letter):" | Write-Host
}
fsutil fsinfo refsinfo "$($Letter):" | Write-Host
Write-DiskReport -Step 'making the volume'
exit 0
