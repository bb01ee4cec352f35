#!/usr/bin/env bash
# The macOS CI job's proof that CloneCopy clones there (azure-pipelines.yml, .github/workflows/ci.yml): prints
# `diskutil info` for the volume that holds DIR and requires APFS (no runner document says what the disk is), then builds
# samples/Repository in DIR, its NuGet cache there too, with CloneCopy packed from this checkout, the guard
# (CloneCopyRequireClones=error: a file copied instead of cloned fails the build with CLC005) and
# CloneCopyVerifyClones=true (every clone read back), and requires the summary lines to count files "cloned" (more than
# none). The build log goes to artifacts/clones-on-apfs-build.log; DIR/clone-check is deleted afterwards.
# The expectation is the product's macOS rule (docs/how-it-works.md, "What the task does", its macOS row: `clonefile` into a
# new file, volumes told apart by st_dev, elsewhere File.Copy): the sample, its outputs and its package cache are all on
# DIR's volume, so every file that is not empty is cloned, and the guard (empty files aside) fails the build otherwise.
#
#   bash scripts/macos/clones-on-apfs.sh DIR
#
# Elsewhere than macOS (to try it on Linux) the volume is described by findmnt and not required to be APFS.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
dir=${1:?usage: clones-on-apfs.sh DIR}
work="${dir%/}/clone-check"
fail() { echo "clones-on-apfs: FAILED $*"; rm -rf "$work"; exit 1; }
source scripts/lib/packages.sh

mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
if [[ $(uname) == Darwin ]]; then
  mount=$(df "$dir" | awk 'NR == 2 { print $NF }')
  diskutil info "$mount" || fail "diskutil info $mount"
  diskutil info "$mount" | grep -Eq 'Type \(Bundle\): +apfs|File System Personality: +APFS' || fail "$dir is not on APFS"
else
  findmnt -T "$dir" || true
fi

rm -rf "$work" && mkdir -p "$work"
pack_clonecopy "$repo/artifacts/packages" -clp:ErrorsOnly >/dev/null || fail "dotnet pack src/CloneCopy"
version=$(package_version "$repo/artifacts/packages" CloneCopy) || fail "no CloneCopy package"
cp -R "$repo/artifacts/packages" "$work/packages"
copy_sample Repository "$work/Repository" "$work/packages" "$version" || fail "copying the sample"
log="$work/build.log"
NUGET_PACKAGES="$work/nuget-packages" dotnet build "$work/Repository/Sample.slnx" -v:d -nologo -m:1 -tl:off \
  -p:CloneCopyRequireClones=error -p:CloneCopyVerifyClones=true > "$log" 2>&1
built=$?
mkdir -p artifacts && cp "$log" artifacts/clones-on-apfs-build.log
grep -E '^[[:space:]]*CloneCopy( \([^)]*\))?: [0-9]+ files? |CLC00' "$log" | sed 's/^ *//' | sort | uniq -c
((built == 0)) || { tail -30 "$log"; fail "the build (exit $built; CLC005 is the guard: a file was copied, not cloned)"; }
# The per-project summary lines ("CloneCopy: 12 files cloned (1.0 MB not written) [App]"; -v:d also prints one line per
# Copy call, without the project, which would count each file twice): the numbers before "file(s) cloned", summed.
cloned=$(grep -E 'CloneCopy( \([^)]*\))?: [0-9]+ files? cloned.* \[[^]]+\][[:space:]]*$' "$log" | grep -Eo '[0-9]+ files? cloned' | awk '{ n += $1 } END { print n + 0 }')
((cloned > 0)) || fail "the summary lines count no file cloned"
rm -rf "$work"
echo "clones-on-apfs: passed ($cloned files cloned, CloneCopy $version, the guard and CloneCopyVerifyClones=true)"
