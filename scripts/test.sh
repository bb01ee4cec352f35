#!/usr/bin/env bash
# Runs every test, in several lanes, and ends with one line for each:
#   linux        the whole xunit suite (tests/CloneCopy.Tests) as the current user; as root it loop-mounts
#                reflink XFS, btrfs and ext4 images and builds real projects with the packed SDK;
#   unprivileged the differential suite against MSBuild's own Copy as uid 65534 (needs root);
#   waves, always-retry  the same in processes with change waves from 18.7 off (German UI) and with
#                MSBUILDALWAYSRETRY=1 (Japanese UI) (need root);
#   atomic-replace the same with CloneCopyAtomicReplace on for CloneCopy's task (needs root);
#   wine         the Windows lane: the portable tests and the differential suite built for win-x64, under Wine;
#   demo         the README's main command (scripts/demo.sh), checked for what the README says it shows;
#   doc-commands the README's and docs/build-compare.md's commands for a user's own repository (adding CloneCopy,
#                installing and running clonecopy-compare), run as written from a fresh clone without tags;
#   faults       injected system-call faults (strace), MSBuild's Copy against CloneCopy's (scripts/fault-lane.sh);
#   build-compare the clonecopy-compare tool's tests, and one comparison of samples/Repository checked end to end;
#   release      both packages checked as a user meets them (scripts/check-release.sh, as the release stage does).
#   windows-scripts  the Windows jobs' PowerShell parsed by PowerShell, and their version and sample binding run and
#                restored against this commit's package (scripts/check-windows-scripts.sh).
# Under CI=true a lane that cannot run is a failure, never a skip.
set -uo pipefail
cd "$(dirname "$0")/.."

case "$(uname -s)" in
  MINGW* | MSYS* | CYGWIN*)
    # Windows itself: the Windows lane's tests run natively, no Wine needed. What some of them need and this Windows
    # may not have is asked of it first, as the wine lane asks Wine (CloneCopy.Tests.Windows --probe: Wine itself for
    # the tests of Wine's own answers, a ReFS folder in CLONECOPY_TEST_REFS, symbolic links, a rename over an open
    # file); the traits answered "no" are left out and named. The CI jobs give the ReFS tests their own volume
    # (scripts/windows/run-windows-tests.ps1).
    dotnet build tests/CloneCopy.Tests.Windows -c Release -nologo -clp:ErrorsOnly || exit 1
    probe=$(dotnet run --project tests/CloneCopy.Tests.Windows -c Release --no-build -- --probe | tr -d '\r' | grep -E '^Needs=[A-Za-z]+ (yes|no) ')
    [[ -n $probe ]] || { echo "windows: the probe (CloneCopy.Tests.Windows --probe) gave no answers"; exit 1; }
    echo "$probe"
    left_out=($(awk '$2 == "no" { print "-trait-", $1 }' <<<"$probe"))
    dotnet run --project tests/CloneCopy.Tests.Windows -c Release --no-build -- -noLogo -noColor "${left_out[@]}"
    exit $? ;;
  Darwin)
    # macOS: the shared cases that say something about macOS (the engine's decisions, the macOS cloner through its seam;
    # what is left out and why: scripts/macos/portable-tests.sh); the rest needs Linux filesystems or Windows.
    bash scripts/macos/portable-tests.sh
    exit $? ;;
esac

bash scripts/setup.sh || exit 1
dotnet build CloneCopy.slnx -c Release -nologo -clp:ErrorsOnly || exit 1

source scripts/lib/xunit-summary.sh
source scripts/lib/built.sh
status=0
lines=()
# Each lane's wall time, printed before the lane lines: the whole run must stay within CI's budget (docs/development.md).
times=()
mark=$(date +%s)
took() { local now; now=$(date +%s); times+=("$1 $((now - mark)) s"); mark=$now; }

log=$(mktemp)
dotnet "$(built_assembly tests/CloneCopy.Tests)" -noLogo -noColor -parallel none 2>&1 | tee "$log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
lines+=("$(xunit_line "linux ($(id -un))" "$log")")
rm -f "$log"
took linux

out=$(mktemp)
if [[ $(id -u) -eq 0 ]]; then
  bash scripts/differential-lanes.sh > "$out" || status=1
  cat "$out"
  while IFS= read -r line; do lines+=("$line"); done < "$out"
elif [[ "${CI:-}" == "true" ]]; then
  lines+=("unprivileged and variant differential lanes: need root"); status=1
fi
took differential

# Injected system-call faults, MSBuild's Copy against CloneCopy's (scripts/fault-lane.sh; needs root and strace).
bash scripts/fault-lane.sh > "$out" || status=1
cat "$out"
lines+=("$(tail -1 "$out")")

took faults
bash scripts/wine-lane.sh > "$out" || status=1
lines+=("$(tail -1 "$out")")
took wine

bash scripts/check-demo.sh > "$out" 2>&1 || status=1
cat "$out"
lines+=("$(tail -1 "$out")")
took demo

# The commands a new user copies for a repository of their own, verbatim from a fresh clone with no tags, empty
# caches and HOME (scripts/check-doc-commands.sh): it packs both packages again there, as the commands do, and
# builds a two-project repository 19 times (two comparisons and the README's build): 653 s at ed28ccc on 2 cores with
# little else running (docs/development.md).
bash scripts/check-doc-commands.sh > "$out" 2>&1 || status=1
cat "$out"
lines+=("$(tail -1 "$out")")
took doc-commands

# clonecopy-compare (docs/build-compare.md): its own tests, then one comparison of samples/Repository checked
# for a report, a JSON file and a chart that agree.
log=$(mktemp)
dotnet "$(built_assembly tests/CloneCopy.BuildCompare.Tests)" -noLogo -noColor 2>&1 | tee "$log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
lines+=("$(xunit_line "build-compare tests" "$log")")
rm -f "$log"
bash scripts/check-build-compare.sh > "$out" 2>&1 || status=1
cat "$out"
lines+=("$(tail -1 "$out")")
took build-compare

# The release check (scripts/check-release.sh, what the release stage runs on the packages it pushes), here on this
# commit's packages as check-build-compare.sh just packed them: the same build, nothing packed again.
release="artifacts/release-check"
rm -rf "$release" && mkdir -p "$release/packages"
cp artifacts/packages/CloneCopy.[0-9]*.nupkg artifacts/check-build-compare/feed/CloneCopy.BuildCompare.[0-9]*.nupkg "$release/packages/" 2>/dev/null
bash scripts/check-release.sh "$release/packages" > "$out" 2>&1 || status=1
cat "$out"
lines+=("$(tail -1 "$out")")
took release

# Every hand-made mistake of scripts/mistakes.sh can still be made (its text is still in its file), so that the
# exercise does not rot between its whole runs: a second.
MISTAKES_CAN_BE_MADE=1 bash scripts/mistakes.sh > "$out" 2>&1 || status=1
cat "$out"
lines+=("$(tail -1 "$out")")
took mistakes

# The Windows jobs' scripts, which nothing here runs on Windows: parsed, and their packaging functions run on the same package.
bash scripts/check-windows-scripts.sh "$release/packages" > "$out" 2>&1 || status=1
cat "$out"
lines+=("$(tail -1 "$out")")
took windows-scripts
rm -f "$out"

# Under CI a skipped test is a failure wherever it comes from: each test that needs something makes itself fail
# under CI=true, and this catches one that does not.
if [[ "${CI:-}" == "true" ]]; then
  for line in "${lines[@]}"; do
    if [[ $line =~ ,\ ([0-9]+)\ skipped ]] && ((BASH_REMATCH[1] > 0)); then
      echo "ci: a lane skipped tests, which CI does not allow: $line" >&2
      status=1
    fi
  done
fi

(IFS=,; echo "lane times:${times[*]/#/ }")
echo
printf '%s\n' "${lines[@]}"
if ((status == 0)); then echo "all lanes passed"; else echo "FAILED"; fi
exit "$status"
