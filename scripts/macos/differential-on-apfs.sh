#!/usr/bin/env bash
# The differential suite against MSBuild's Copy, on the macOS CI job's APFS disk (azure-pipelines.yml,
# .github/workflows/ci.yml): the suite's Linux class takes its directories from CLONECOPY_TEST_*, here all folders
# under DIR, so every scenario runs through MSBuild's Copy and CloneCopy's on APFS. DIR's folders are deleted after.
#
#   bash scripts/macos/differential-on-apfs.sh DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
root="${1:?usage: differential-on-apfs.sh DIR}/differential"
for kind in xfs xfs2 btrfs ext4; do mkdir -p "$root/$kind"; done
export CLONECOPY_TEST_XFS="$root/xfs" CLONECOPY_TEST_XFS2="$root/xfs2" CLONECOPY_TEST_BTRFS="$root/btrfs" CLONECOPY_TEST_EXT4="$root/ext4"
source scripts/lib/built.sh
status=0
dotnet build tests/CloneCopy.Tests -c Release -nologo -clp:ErrorsOnly || status=$?
if ((status == 0)); then
  dotnet "$(built_assembly tests/CloneCopy.Tests)" -noLogo -noColor \
    -class CloneCopy.Tests.Differential.LinuxDifferentialTests -class CloneCopy.Tests.Differential.GeneratedDifferentialTests || status=$?
fi
rm -rf "$root"
exit "$status"
