#!/usr/bin/env bash
# The main job: packs CloneCopy, builds the sample repository with it (enabled repo-wide through
# Directory.Build.props, restored from a local feed as a real <Sdk>), and shows what it cloned.
#
# Where the current filesystem cannot clone and this runs as root, the sample is built on a reflink XFS
# that the script loop-mounts itself, with the NuGet package cache on the same volume, so that package
# assemblies clone too. Otherwise it builds in place and the log says why nothing was cloned.
#
#   bash scripts/demo.sh            # build, show, clean up the mount
#   KEEP=1 bash scripts/demo.sh     # leave the XFS mounted for a look around
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
artifacts="$repo/artifacts"
source scripts/lib/step.sh
source scripts/lib/packages.sh

step "setting up the machine" "run as root on Debian/Ubuntu (it installs xfsprogs, btrfs-progs, e2fsprogs), or install them yourself" \
  bash scripts/setup.sh
echo "== packing CloneCopy"
step "packing CloneCopy" "check that 'dotnet --info' shows a .NET 10 SDK and that NuGet can reach its package source (the restore fetches everything the pack needs)" \
  pack_clonecopy "$artifacts/packages"
version=$(package_version "$artifacts/packages" CloneCopy)

# Can the filesystem under artifacts/ clone? Ask it directly.
mkdir -p "$artifacts"
source scripts/lib/clone-probe.sh
if can_clone "$artifacts"; then
  work="$artifacts/demo"
  echo "== $(stat -f -c %T "$artifacts") under $artifacts can clone: building there"
elif [[ $(id -u) -eq 0 ]] && [[ -e /dev/loop-control ]]; then
  work="$artifacts/demo-xfs"
  source scripts/lib/loop-fs.sh
  step "making and loop-mounting a reflink XFS" "this needs root, loop devices (/dev/loop-control) and xfsprogs (apt-get install xfsprogs); without them run the demo on a filesystem that clones, or as a user to see the fallback" \
    loop_fs xfs "$work" 2G
  [[ -n "${KEEP:-}" ]] || trap 'cd "$repo"; loop_fs_cleanup' EXIT
  echo "== $(stat -f -c %T "$artifacts") under $artifacts cannot clone: building on a reflink XFS loop-mounted at $work"
else
  work="$artifacts/demo"
  echo "== $(stat -f -c %T "$artifacts") under $artifacts cannot clone and this is not root: building in place; nothing will be cloned"
fi

sample="$work/Repository"
rm -rf "$sample" "$work/nuget-packages"
mkdir -p "$work"
# The copy lives elsewhere: its feed is the packed CloneCopy by absolute path, its global.json pins that version.
copy_sample Repository "$sample" "$artifacts/packages" "$version"
export NUGET_PACKAGES="$work/nuget-packages"   # on the same volume, so package assemblies clone too

echo "== building the sample (3 projects: App -> LibA -> LibB -> Newtonsoft.Json, plus content files)"
log="$work/build.log"
(cd "$sample" && dotnet build Sample.slnx -v:n -nologo -m:1 >"$log" 2>&1) || {
  tail -50 "$log"; echo "!! building the sample failed; the whole log is $log (run with KEEP=1 to keep the mount)" >&2; exit 1; }

echo "== what CloneCopy said (one line per project build)"
grep -E '^ +CloneCopy: ' "$log" | sed -E 's/^ +/  /'

echo "== publishing App: the copies publish makes get a line of their own"
(cd "$sample" && dotnet publish src/App/App.csproj -v:n -nologo -m:1 -o "$work/published" >"$log" 2>&1) || {
  tail -50 "$log"; echo "!! publishing the sample failed; the whole log is $log (run with KEEP=1 to keep the mount)" >&2; exit 1; }
grep -E '^ +CloneCopy \(Publish\): ' "$log" | sed -E 's/^ +/  /'

echo "== proof from the extent map (filefrag -v: 'shared' = same physical blocks as the source)"
for file in "$sample/src/App/bin/Debug/net10.0/Newtonsoft.Json.dll" "$sample/src/App/bin/Debug/net10.0/LibB.dll" "$sample/src/App/bin/Debug/net10.0/assets/data.csv" "$work/published/LibA.dll"; do
  if filefrag -v "$file" 2>/dev/null | grep -q shared; then verdict="shared extents (a clone)"; else verdict="no shared extents (a copy)"; fi
  echo "  ${file#$work/}: $verdict"
done
echo "== running the app"
dotnet "$sample/src/App/bin/Debug/net10.0/App.dll"
