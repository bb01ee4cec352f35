#!/usr/bin/env bash
# The differential suite against MSBuild's Copy, on the macOS CI job's APFS disk (azure-pipelines.yml,
# .github/workflows/ci.yml): the suite's Linux class takes its directories from CLONECOPY_TEST_*, here all folders
# under DIR, so every scenario runs through MSBuild's Copy and CloneCopy's on APFS, and the generated cases too. What is
# held there is the comparison, the product's rule on every OS ("behave exactly as MSBuild's own Copy"): both tasks run in
# one process on one disk. The built-in task's pinned outcomes were observed on Linux and under Wine, and MSBuild's Copy
# reaches .NET's macOS File.Copy, which removes an existing destination before it clones (dotnet/runtime,
# FileSystem.CopyFile.OSX.cs), where Linux writes it in place: on macOS the harness holds no pins
# (DifferentialRunner.PinsHoldHere). The job runs as an ordinary user (not root): the scenarios' root branches do not apply.
#
# Left out on macOS, each with the reason (CLONECOPY_SCENARIOS, a regular expression on the scenario names):
#   "full disk"                      it fills the filesystem the tree is on until 256 KiB are left: written for a small
#                                    ext4 loop image the suite makes on Linux; here that is the runner's own disk.
#   "setuid, setgid and sticky bits" its tree cannot be made by a user other than root: macOS's chmod(2) refuses the
#                                    sticky bit on a file that is not a folder ("EFTYPE ... the mode includes the sticky bit
#                                    (S_ISVTX), and path does not refer to a directory").
# The scenarios named LinuxOnly (named pipes fed by a writer, /proc files) leave themselves out off Linux (CopyScenario.
# AppliesHere). scripts/check-windows-scripts.sh checks that every name left out here is still a scenario's name.
#
#   bash scripts/macos/differential-on-apfs.sh DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
root="${1:?usage: differential-on-apfs.sh DIR}/differential"
for kind in xfs xfs2 btrfs ext4; do mkdir -p "$root/$kind"; done
export CLONECOPY_TEST_XFS="$root/xfs" CLONECOPY_TEST_XFS2="$root/xfs2" CLONECOPY_TEST_BTRFS="$root/btrfs" CLONECOPY_TEST_EXT4="$root/ext4"
left_out=("full disk" "setuid, setgid and sticky bits")
pattern=$(printf '%s|' "${left_out[@]}")
export CLONECOPY_SCENARIOS="^(?!(?:${pattern%|})$)"
echo "differential-on-apfs: scenarios left out on macOS: ${left_out[*]} (CLONECOPY_SCENARIOS=$CLONECOPY_SCENARIOS)"
source scripts/lib/built.sh
status=0
dotnet build tests/CloneCopy.Tests -c Release -nologo -clp:ErrorsOnly || status=$?
if ((status == 0)); then
  mkdir -p artifacts/test-results
  dotnet "$(built_assembly tests/CloneCopy.Tests)" -noLogo -noColor -xml artifacts/test-results/macos-differential.xml \
    -class CloneCopy.Tests.Differential.LinuxDifferentialTests -class CloneCopy.Tests.Differential.GeneratedDifferentialTests || status=$?
  # xunit exits 0 when the filters match nothing: at least one test must have run.
  grep -Eq '<assembly [^>]* total="[1-9][0-9]*"' artifacts/test-results/macos-differential.xml 2>/dev/null \
    || { echo "differential-on-apfs: FAILED no test ran"; status=1; }
fi
rm -rf "$root"
exit "$status"
