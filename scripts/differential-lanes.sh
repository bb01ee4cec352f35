#!/usr/bin/env bash
# The differential suite (CloneCopy against MSBuild's own Copy) in the lanes the main test run cannot be:
#   unprivileged  as uid 65534 on loop-mounted ext4 and reflink XFS that user owns (root writes through
#                 read-only bits, which hides MSBuild's read-only rules);
#   waves         in a process started with MSBUILDDISABLEFEATURESFROMVERSION=18.7 (MSBuild reads change waves
#                 once per process) and a German UI culture, as uid 65534, where "access denied" happens
#                 and the retry rule that wave changes is exercised;
#   always-retry  in a process started with MSBUILDALWAYSRETRY=1 and a Japanese UI culture, as uid 65534;
#   hatches       one process per escape hatch of MSBuild's Copy and value users set (1, true, empty), as
#                 uid 65534, each running the scenarios that variable changes (CLONECOPY_SCENARIOS) and
#                 CLONECOPY_HATCH_CASES generated cases (default 40): MSBuild reads some of these once per
#                 process, so only a process started with the variable shows its effect.
#   multithreaded the suite with MSBuild's multithreaded semantics (-mt): each task gets a TaskEnvironment whose
#                 project directory is not the process's current directory and whose environment alone holds
#                 the scenario's escape hatches, as uid 65534.
#   msbuild-18.0  the suite built against MSBuild 18.0.2's packages (the .NET SDK 10.0.1xx's MSBuild, which Linux
#                 distributions ship): MSBuild 18.0's Copy, and CloneCopy's build for such hosts running against
#                 18.0's Framework and Utilities, as uid 65534; its line names the MSBuild the suite read.
#   msbuild-18.12 the .NET 11 SDK's MSBuild: the suite (hand-written scenarios and generated cases; msbuild-18.12
#   msbuild-18.10 also the -mt half, the scenarios change waves change in a process with MSBUILDDISABLEFEATURES-
#                 FROMVERSION=18.7, and the SourceFolders ones with a retired wave, 17.10) with MSBuild 18.12.2's (18.10.1's) Copy, Framework and Utilities from their
#                 packages, on the .NET 11.0.0 runtime from its package, CloneCopy's net10.0 build (the one
#                 Sdk.targets gives such a host), as uid 65534 (tests/MSBuildUnderTest.props, CloneCopyCompareRuntime).
#                 Their lines name the MSBuild and the runtime the suite read.
#   atomic-replace the suite with CloneCopyAtomicReplace on for CloneCopy's task (CLONECOPY_TEST_ATOMIC_REPLACE=1), as uid
#                 65534: a replaced destination is renamed over, never deleted first, and every event and file must still
#                 be MSBuild's (docs/fidelity.md lists what may differ).
# Every lane but multithreaded also runs the generated cases (GeneratedDifferentialTests; CLONECOPY_GEN_SEED/_CASES
# pass through, and CLONECOPY_SCENARIOS, to run a few scenarios in the plain lanes) and prints their summary line on stderr.
# Needs root (it mounts the filesystems), or CLONECOPY_TEST_EXT4 and CLONECOPY_TEST_XFS (see below). Prints one line per lane: "<lane>: N passed, N failed, N skipped".
# Usage: scripts/differential-lanes.sh [unprivileged|waves|always-retry|hatches|multithreaded|msbuild-18.0|msbuild-18.12|msbuild-18.10|atomic-replace]...   (all when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."

lanes=("$@")
((${#lanes[@]})) || lanes=(unprivileged waves always-retry hatches multithreaded atomic-replace msbuild-18.0 msbuild-18.12 msbuild-18.10)
# As root the lanes run as uid 65534 on filesystems made here. Without root, give mounted directories this user may
# write (CLONECOPY_TEST_EXT4 and CLONECOPY_TEST_XFS, a reflink XFS) and the lanes run as this user, who is unprivileged.
if [[ $(id -u) -eq 0 ]]; then
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups) who="uid 65534"
elif [[ -n "${CLONECOPY_TEST_EXT4:-}" && -n "${CLONECOPY_TEST_XFS:-}" ]]; then
  as_user=() who=$(id -un)
else
  echo "differential-lanes: run as root (it mounts the test filesystems), or set CLONECOPY_TEST_EXT4 and CLONECOPY_TEST_XFS to mounted directories you may write" >&2
  exit 1
fi

source scripts/lib/xunit-summary.sh
source scripts/lib/built.sh
tests=$(built_assembly tests/CloneCopy.Tests)
source scripts/lib/step.sh
[[ -f "$tests" ]] || step "building the tests" "read the error above" dotnet build tests/CloneCopy.Tests -c Release -nologo

# Which MSBuild the lanes compare against (the version CloneCopy reads from the Framework the tests load).
echo "differential lanes: the SDK's MSBuild $(dotnet "$tests" --msbuild-version); msbuild-* lanes: their own" >&2

scratch=$(mktemp -d /tmp/clonecopy-lanes.XXXXXX)
source scripts/lib/loop-fs.sh
cleanup() {
  loop_fs_cleanup
  rm -rf "$scratch"
}
trap cleanup EXIT

# The lanes' filesystems, owned by uid 65534: given (CLONECOPY_TEST_EXT4, CLONECOPY_TEST_XFS, already mounted and
# writable by that user), or made here.
ext4=${CLONECOPY_TEST_EXT4:-$scratch/ext4} xfs=${CLONECOPY_TEST_XFS:-$scratch/xfs}
[[ -n "${CLONECOPY_TEST_EXT4:-}" ]] || { loop_fs ext4 "$ext4" 2G && chown 65534:65534 "$ext4"; }
[[ -n "${CLONECOPY_TEST_XFS:-}" ]] || { loop_fs xfs "$xfs" 2G && chown 65534:65534 "$xfs"; }
mkdir -p "$scratch/home" && chmod 755 "$scratch"
((${#as_user[@]} == 0)) || chown 65534:65534 "$scratch/home"

# run <label> <environment...>: the differential classes (trait Lane=$trait) in a new process; prints the lane's line.
trait=Differential
run() {
  local label=$1; shift
  local log="$scratch/$label.log" status
  set +e
  "$@" ${lane_runner-dotnet} "${lane_tests:-$tests}" -noLogo -noColor -trait "Lane=$trait" ${lane_args:-} > "$log" 2>&1
  status=$?
  set -e
  # Each failure up to its stack trace (a generated case's shrunk description and difference are long).
  if grep -aqE '\[FAIL\]' "$log"; then awk '/\[FAIL\]/{f=1} /Stack Trace:/{f=0} f' "$log" >&2 || true; fi
  grep -a '^generated cases' "$log" | sed "s/^/$label: /" >&2 || true
  xunit_line "$label" "$log" || { cat "$log" >&2; return 1; }
  return "$status"
}

common=(HOME="$scratch/home" DOTNET_CLI_HOME="$scratch/home" DOTNET_NOLOGO=1 PATH="$PATH" CI="${CI:-}"
  ${CLONECOPY_GEN_SEED:+CLONECOPY_GEN_SEED=$CLONECOPY_GEN_SEED} ${CLONECOPY_GEN_CASES:+CLONECOPY_GEN_CASES=$CLONECOPY_GEN_CASES}
  ${CLONECOPY_SCENARIOS:+"CLONECOPY_SCENARIOS=$CLONECOPY_SCENARIOS"}
  CLONECOPY_TEST_EXT4="$ext4" CLONECOPY_TEST_XFS="$xfs" CLONECOPY_TEST_XFS2="$xfs" CLONECOPY_TEST_BTRFS="$xfs")
status=0
for lane in "${lanes[@]}"; do
  case "$lane" in
    unprivileged)
      run "differential as $who" "${as_user[@]}" env -i "${common[@]}" || status=1 ;;
    waves)
      run "differential with change waves from 18.7 off, UI culture de, as $who" \
        "${as_user[@]}" env -i "${common[@]}" \
        MSBUILDDISABLEFEATURESFROMVERSION=18.7 DOTNET_CLI_UI_LANGUAGE=de || status=1 ;;
    always-retry)
      run "differential with MSBUILDALWAYSRETRY=1, UI culture ja, as $who" \
        "${as_user[@]}" env -i "${common[@]}" \
        MSBUILDALWAYSRETRY=1 DOTNET_CLI_UI_LANGUAGE=ja || status=1 ;;
    hatches)
      # <variable> <scenarios it changes (a regular expression on scenario names)>, one line each, from the
      # test binary: the product's list of escape hatches (CopyEscapeHatches) and their scenarios (EscapeHatchLanes).
      hatches=$(dotnet "$tests" --escape-hatch-lanes)
      while read -r variable scenarios; do
        for value in 1 true ""; do
          run "differential with $variable='$value', as $who" \
            "${as_user[@]}" env -i "${common[@]}" \
            "$variable=$value" CLONECOPY_SCENARIOS="$scenarios" CLONECOPY_GEN_CASES="${CLONECOPY_HATCH_CASES:-40}" || status=1
        done
      done <<< "$hatches"
      ;;
    multithreaded)
      trait=DifferentialMultiThreaded run "differential with TaskEnvironment (-mt semantics), as $who" \
        "${as_user[@]}" env -i "${common[@]}" || status=1 ;;
    msbuild-18.12|msbuild-18.10)
      # The suite compiled against the SDK's MSBuild, published self-contained on .NET 11.0.0 with the packages'
      # net11.0 assemblies in place of the SDK's (bin/msbuild-<version>/, tests/MSBuildUnderTest.props); run by its
      # apphost. Without the analyzers, which the main build has run on the same sources.
      version=$([[ $lane == msbuild-18.12 ]] && echo 18.12.2 || echo 18.10.1) runtime=11.0.0
      build=(tests/CloneCopy.Tests -p:Configuration=Release -p:CloneCopyCompareMSBuild=$version -p:CloneCopyCompareRuntime=$runtime)
      step "publishing the tests against MSBuild $version on .NET $runtime" "read the error above" \
        dotnet publish "${build[@]}" -nologo -clp:ErrorsOnly -p:RunAnalyzers=false -p:EnforceCodeStyleInBuild=false
      published=$(dotnet msbuild "${build[@]}" -getProperty:PublishDir -nologo | tr -d '\r')
      published=tests/CloneCopy.Tests/$published
      read_version=$("$published/CloneCopy.Tests" --msbuild-version) read_runtime=$("$published/CloneCopy.Tests" --runtime-version)
      named="MSBuild $read_version's Copy (packages $version) on .NET $read_runtime"
      lane_runner="" lane_tests="$published/CloneCopy.Tests" run "differential with $named, as $who" \
        "${as_user[@]}" env -i "${common[@]}" || status=1
      if [[ $lane == msbuild-18.12 ]]; then
        lane_runner="" lane_tests="$published/CloneCopy.Tests" trait=DifferentialMultiThreaded run "differential with TaskEnvironment (-mt semantics), $named, as $who" \
          "${as_user[@]}" env -i "${common[@]}" || status=1
        # Change waves are read once per process: the scenarios two waves change (18.11: SourceFolders' order; 18.7:
        # access denied retried) in one started with MSBUILDDISABLEFEATURESFROMVERSION=18.7, a wave 18.11 still knows.
        lane_runner="" lane_tests="$published/CloneCopy.Tests" lane_args="-class- CloneCopy.Tests.Differential.GeneratedDifferentialTests" \
          run "differential with change waves from 18.7 off, $named, as $who" \
          "${as_user[@]}" env -i "${common[@]}" MSBUILDDISABLEFEATURESFROMVERSION=18.7 \
          "CLONECOPY_SCENARIOS=${CLONECOPY_SCENARIOS:-source folder|read-only destination|not writable|not readable|held open}" || status=1
        # A wave 18.11 retired (17.10-18.3) is clamped to the lowest it knows, 18.4 (MSB4272 in a build): wave 18.11 off.
        lane_runner="" lane_tests="$published/CloneCopy.Tests" lane_args="-class- CloneCopy.Tests.Differential.GeneratedDifferentialTests" \
          run "differential with change waves from 17.10 (retired: 18.4) off, $named, as $who" \
          "${as_user[@]}" env -i "${common[@]}" MSBUILDDISABLEFEATURESFROMVERSION=17.10 "CLONECOPY_SCENARIOS=${CLONECOPY_SCENARIOS:-source folder}" || status=1
      fi
      ;;
    atomic-replace)
      run "differential with CloneCopyAtomicReplace on, as $who" \
        "${as_user[@]}" env -i "${common[@]}" CLONECOPY_TEST_ATOMIC_REPLACE=1 || status=1 ;;
    msbuild-18.*)
      # A build of the suite of its own (bin/msbuild-<version>/, tests/MSBuildUnderTest.props), incremental after the
      # first; without the analyzers, which the main build has run on the same sources (a minute less on 2 cores).
      version=18.0.2
      step "building the tests against MSBuild $version" "read the error above" \
        dotnet build tests/CloneCopy.Tests -c Release -nologo -clp:ErrorsOnly -p:CloneCopyCompareMSBuild=$version \
        -p:RunAnalyzers=false -p:EnforceCodeStyleInBuild=false
      old_tests=$(dotnet msbuild tests/CloneCopy.Tests -getProperty:TargetPath -p:Configuration=Release -p:CloneCopyCompareMSBuild=$version -nologo | tr -d '\r')
      # The version the suite reads from the Microsoft.Build.Framework it loads, as CloneCopy reads it (RunningMSBuild).
      read_version=$(dotnet "$old_tests" --msbuild-version)
      generated=CloneCopy.Tests.Differential.GeneratedDifferentialTests
      lane_tests=$old_tests lane_args="-class- $generated" run "differential with MSBuild $read_version's Copy (packages $version), as $who" \
        "${as_user[@]}" env -i "${common[@]}" || status=1
      # The generated cases in a process of their own with MSBUILDCOPYTASKPARALLELISM=1 (both tasks then copy on the
      # calling thread): 18.0's copy threads have 64 KiB stacks (dotnet/msbuild #12065, undone in 18.3 by #12626), and
      # on .NET 10 an exception caught on one of them (the MSB3021 path) overflows it and ends the process; which
      # generated case meets that cannot be told beforehand. The hand-written scenarios above run on the copy threads.
      lane_tests=$old_tests lane_args="-class $generated" run "differential generated cases with MSBuild $read_version's Copy, MSBUILDCOPYTASKPARALLELISM=1, as $who" \
        "${as_user[@]}" env -i "${common[@]}" MSBUILDCOPYTASKPARALLELISM=1 || status=1
      ;;
    *) echo "unknown lane $lane" >&2; exit 2 ;;
  esac
done
exit "$status"
