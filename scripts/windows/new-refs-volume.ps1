# Makes a ReFS volume (or a Dev Drive, -Kind DevDrive) on a dynamically expanding VHDX and gives it a drive letter,
# with what a hosted Windows image has without Hyper-V: diskpart's virtual disk commands make and attach the VHDX (New-VHD
# and Mount-VHD are the Hyper-V module's), then the Storage module initialises it (GPT), partitions and formats it, the
# sequence samypr100/setup-dev-drive runs on GitHub's hosted Windows runners (Initialize-Disk, New-Partition,
# Format-Volume, with -DevDrive from build 22621 on) and astral-sh/uv's CI for its ReFS volume.
#
#   pwsh scripts/windows/new-refs-volume.ps1 -Name refs -Letter R [-Kind DevDrive] [-MaximumMB 20480] [-HostFreeGB 16]
#
# The job's first step: it also prints what the image has (Windows build, PowerShell, .NET SDKs, MSBuild, Visual Studio's
# MSBuild.exe, Git Bash, jq, Defender), so a first run's log says which image it met. The VHDX goes to
# X:\clonecopy-ci\NAME.vhdx on the host's fixed drive with the most free space, which must have HostFreeGB free (the job's
# peak, docs/development.md "CI jobs on Windows and macOS: disk"): not the agent's temporary folder, whose D: Azure's
# hosted agents promise only about 10 GB of, and which GitHub's windows-2025 no longer has. Microsoft's Dev Drive page asks
# for at least 50 GB (give -MaximumMB 53248 for one); a dynamically expanding VHDX takes on the host disk only what is
# written to it. Stops with an error (exit code 1) unless the volume is there, formatted as asked.
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

# What the image has, for the log only: nothing below depends on a version printed here, and a tool that is missing
# says so instead of stopping the step (the step that needs it fails on it, with its own words).
function Write-Fact([string] $What, [scriptblock] $Read) {
  try { $value = (& $Read | Out-String).Trim() } catch { $value = "not found ($($_.Exception.Message))" }
  if (-not $value) { $value = 'not found' }
  Write-Host ("{0,-34} {1}" -f "${What}:", ($value -replace "`r?`n", '; '))
}
Write-Fact 'Windows' { '{0} (build {1})' -f (Get-CimInstance Win32_OperatingSystem).Caption, [Environment]::OSVersion.Version.Build }
Write-Fact 'PowerShell' { $PSVersionTable.PSVersion.ToString() }
Write-Fact '.NET SDK (global.json)' { dotnet --version }
Write-Fact '.NET SDKs installed' { dotnet --list-sdks | ForEach-Object { ($_ -split ' ')[0] } }
Write-Fact "the SDK's MSBuild" { dotnet msbuild -version -nologo | Select-Object -Last 1 }
Write-Fact "Visual Studio's MSBuild.exe" {
  $vswhere = Join-Path ${env:ProgramFiles(x86)} 'Microsoft Visual Studio\Installer\vswhere.exe'
  $msbuild = & $vswhere -latest -requires Microsoft.Component.MSBuild -find 'MSBuild\**\Bin\MSBuild.exe' | Select-Object -First 1
  '{0} ({1})' -f (& $msbuild -version -nologo | Select-Object -Last 1), $msbuild
}
Write-Fact 'bash' { (Get-Command bash).Source + ', ' + (bash --version | Select-Object -First 1) }
Write-Fact 'jq' { jq --version }
Write-Fact 'Defender real-time protection' { $status = Get-MpComputerStatus; "$($status.RealTimeProtectionEnabled) (mode $($status.AMRunningMode))" }

# diskpart, Initialize-Disk and Format-Volume need an elevated process. GitHub's Windows runners "run as administrators
# with User Account Control (UAC) disabled" (GitHub's runner documentation, quoted in actions/runner-images #5213); Azure's
# hosted agents are built from the same images. Checked here, so that a job without it stops saying why.
$principal = [Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()
if (-not $principal.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
  Write-Host "new-refs-volume: FAILED this process is not elevated: diskpart and the Storage module's disk cmdlets need an administrator"
  exit 1
}

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

# diskpart: "create vdisk", "select vdisk", "attach vdisk" (diskpart's documented virtual disk commands).
Invoke-DiskPart @("create vdisk file=`"$Vhd`" maximum=$MaximumMB type=expandable", "select vdisk file=`"$Vhd`"", 'attach vdisk')

# The attached disk, as the Storage module sees it (Get-DiskImage: "Gets ... disk image objects (virtual hard disk or
# ISO)"); it may take a moment to appear after the attach.
$disk = $null
$deadline = (Get-Date).AddSeconds(60)
while (-not $disk -and (Get-Date) -lt $deadline) {
  $disk = Get-DiskImage -ImagePath $Vhd -ErrorAction SilentlyContinue | Get-Disk -ErrorAction SilentlyContinue
  if (-not $disk) { Start-Sleep -Seconds 2 }
}
if (-not $disk) { Write-Host "new-refs-volume: FAILED the attached $Vhd did not appear as a disk within a minute"; exit 1 }
Write-Host "disk $($disk.Number): $($disk.FriendlyName), $([math]::Round($disk.Size / 1GB, 1)) GB, $($disk.PartitionStyle)"

# A Dev Drive can only be made by a format that asks for it ("Format-Volume -DevDrive", Microsoft's Dev Drive page).
Initialize-Disk -Number $disk.Number -PartitionStyle GPT
$partition = New-Partition -DiskNumber $disk.Number -UseMaximumSize -DriveLetter $Letter
if ($DevDrive) {
  Format-Volume -Partition $partition -DevDrive -NewFileSystemLabel CloneCopyDevDrive -Confirm:$false -Force | Out-Null
} else {
  Format-Volume -Partition $partition -FileSystem ReFS -NewFileSystemLabel CloneCopyReFS -Confirm:$false -Force | Out-Null
}

$volume = Get-Volume -DriveLetter $Letter
Write-Host "$($Letter): $($volume.FileSystem), $([math]::Round($volume.Size / 1GB, 1)) GB"
if ($volume.FileSystem -ne 'ReFS') { Write-Host "new-refs-volume: FAILED $($Letter): is $($volume.FileSystem), not ReFS"; exit 1 }
if ($DevDrive) {
  # For the log: whether Windows sees a Dev Drive there, and its filters. Its wording is not documented, so it
  # is shown, not matched; Format-Volume -DevDrive above stops the step if it could not make one.
  fsutil devdrv query "$($Letter):" | Write-Host
}
fsutil fsinfo refsinfo "$($Letter):" | Write-Host
Write-DiskReport -Step 'making the volume'
exit 0
