#!/usr/bin/env bash
# The Windows lane: CloneCopy's tests that are not about Linux filesystems (the differential suite
# against MSBuild's own Copy, the Windows clone path, the engine's decisions), built for win-x64 and run
# under Wine. As root it runs them as an unprivileged user (uid 65534): root writes through read-only
# attributes under Wine as it does on Linux, which would hide the read-only rules.
# Prints one line: "wine (win-x64, Wine V; left out: T, ...): N passed, N failed, N skipped", and on stderr the probe's
# answers and each failed test by name. When a test ends the process before the runner's totals, every test class runs
# again in a process of its own, so that the line still has totals and every failure is named. Arguments go to the xunit
# runner; CLONECOPY_GEN_SEED, CLONECOPY_GEN_CASES, CLONECOPY_GEN_VERBOSE and CLONECOPY_SCENARIOS pass through.
# What is left out is asked of the running Wine first, not assumed from its version: the test program's --probe
# (tests/CloneCopy.Tests.Windows/LaneProbe.cs), run as the tests run, does once what each trait Needs=X needs and
# answers yes or no: symbolic links that read as their targets (Wine 8's CreateSymbolicLinkW reports success and makes
# nothing), a rename over a file held open sharing delete (Wine 8 refuses it), a ReFS volume in CLONECOPY_TEST_REFS
# (Wine has no block clone: those tests run in the Windows CI job), Wine itself. The traits answered no are left out
# (-trait-) and named in the line; the rest run, whatever the Wine.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v wine >/dev/null 2>&1; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "wine-lane: wine is not installed; run as root (or apt-get install wine64)" >&2
    exit 1
  fi
  echo "wine-lane: installing wine64"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq wine64 >/dev/null
fi

out=artifacts/wine/tests
source scripts/lib/step.sh
step "building the Windows tests for win-x64" "read the errors above; the restore needs the win-x64 runtime pack from NuGet's package source" \
  dotnet publish tests/CloneCopy.Tests.Windows -c Release -o "$out" -nologo
# Wine maps a DLL only if the user may execute it (SEC_IMAGE asks for execute access).
chmod -R a+rX "$out" && find "$out" -name '*.dll' -exec chmod a+x {} +

home=$(mktemp -d /tmp/clonecopy-wine.XXXXXX)
run_as=()
if [[ $(id -u) -eq 0 ]]; then
  chown 65534:65534 "$home"
  run_as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
trap 'rm -rf "$home"' EXIT

log="$home/log"
# A clean environment: Wine makes its own prefix in the temporary home; no Gecko (mscoree must stay: Wine
# maps IL-only images through it); no W^X double mapping, whose code-heap release crashes the CLR under
# Wine 8 (Internal CLR error 0x80131506 in DynamicResolver.DestroyScout.Finalize); UTF-8 file names. The time limit
# only catches a hang: on a loaded machine (load average 75 on 2 cores) the differential class alone took over 30 minutes.
in_wine() {
  "${run_as[@]}" env -i HOME="$home" WINEPREFIX="$home/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mshtml=d" DOTNET_EnableWriteXorExecute=0 \
    PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 ${CI:+CI=$CI} \
    ${CLONECOPY_GEN_SEED:+CLONECOPY_GEN_SEED=$CLONECOPY_GEN_SEED} ${CLONECOPY_GEN_CASES:+CLONECOPY_GEN_CASES=$CLONECOPY_GEN_CASES} \
    ${CLONECOPY_GEN_VERBOSE:+CLONECOPY_GEN_VERBOSE=$CLONECOPY_GEN_VERBOSE} ${CLONECOPY_SCENARIOS:+CLONECOPY_SCENARIOS=$CLONECOPY_SCENARIOS} \
    timeout 3600 wine "$out/CloneCopy.Tests.Windows.exe" "$@"
}

probe=$(in_wine --probe 2>"$log.probe" | tr -d '\r' | grep -E '^Needs=[A-Za-z]+ (yes|no) ' || true)
if [[ -z $probe ]]; then
  cat "$log.probe" >&2
  echo "wine (win-x64): the probe (CloneCopy.Tests.Windows.exe --probe) gave no answers under Wine"
  exit 1
fi
sed 's/^/wine-lane: probed: /' <<<"$probe" >&2
left_out=() left_names=()
while read -r need answer _; do
  if [[ $answer == no ]]; then left_out+=(-trait- "$need"); left_names+=("${need#Needs=}"); fi
done <<<"$probe"
wine_version=$(sed -nE 's/^Needs=Wine yes Wine ([^ ]+) .*/\1/p' <<<"$probe")
names=none
((${#left_names[@]} == 0)) || names=$(printf '%s, ' "${left_names[@]}") names=${names%, }
label="wine (win-x64, Wine ${wine_version:-unknown}; left out: $names)"

run_tests() { in_wine -noLogo -noColor "${left_out[@]}" "$@"; }
set +e
run_tests "$@" 2>&1 | tee "$log.out" >&2
status=${PIPESTATUS[0]}
set -e

source scripts/lib/xunit-summary.sh
# The failures by name (the runner's "[FAIL]" lines), each once.
failures() { { grep -a '\[FAIL\]$' "$@" || true; } | sed -E 's/^ *//; s/ \[FAIL\]$//' | sort -u; }
if grep -qaE 'Total: [0-9]+' "$log.out"; then
  xunit_line "$label" "$log.out" || status=1
  failures "$log.out" | sed 's/^/wine-lane: failed: /' >&2
else
  # The process ended before its totals (a crash in interop code ends it: the failure this lane exists to show).
  # Each test class runs again in a process of its own, so every other class still reports, and the line has totals.
  echo "wine-lane: the test process ended without its totals (exit $status); each test class again in a process of its own" >&2
  failures "$log.out" | sed 's/^/wine-lane: failed before the end: /' >&2
  status=1 passed=0 failed=0 skipped=0
  classes=$(run_tests -list classes "$@" 2>/dev/null | tr -d '\r' | grep -E '^[A-Za-z_][A-Za-z0-9_.]*$' || true)
  [[ -n $classes ]] || { echo "$label: the test process ended without its totals, and the classes could not be listed"; exit 1; }
  for class in $classes; do
    # The class alone (the arguments chose the classes listed; given again, their -class filters would add the others).
    run_tests -class "$class" > "$log.class" 2>&1 || true
    cat "$log.class" >> "$log.classes"
    if line=$(xunit_line "$class" "$log.class") && [[ $line =~ :\ ([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped ]]; then
      passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2])) skipped=$((skipped + BASH_REMATCH[3]))
    else
      failed=$((failed + 1))
      echo "wine-lane: $class: its process ended without its totals" >&2
      echo "$class [FAIL]" >> "$log.classes"
    fi
  done
  failures "$log.classes" | sed 's/^/wine-lane: failed: /' >&2
  echo "$label: $passed passed, $failed failed, $skipped skipped (one process per class: the whole run ended early)"
fi
exit "$status"
