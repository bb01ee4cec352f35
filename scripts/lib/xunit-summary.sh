# Sourced by the test scripts. xunit_line LABEL LOG: one line "LABEL: N passed, N failed, N skipped" from
# the xunit.v3 runner's own summary in LOG ("Total: 7, Errors: 0, Failed: 1, Skipped: 0, ..."); returns 1
# (and says so) when the run did not report, which is a failure, never a pass.
xunit_line() {
  local label=$1 log=$2 summary total failed errors skipped
  summary=$(grep -aE 'Total: [0-9]+' "$log" | tail -1 || true)
  total=$(sed -nE 's/.*Total: ([0-9]+).*/\1/p' <<<"$summary")
  failed=$(sed -nE 's/.*Failed: ([0-9]+).*/\1/p' <<<"$summary")
  errors=$(sed -nE 's/.*Errors: ([0-9]+).*/\1/p' <<<"$summary")
  skipped=$(sed -nE 's/.*Skipped: ([0-9]+).*/\1/p' <<<"$summary")
  if [[ -z "$total" ]]; then
    echo "$label: the test run did not report"
    return 1
  fi
  echo "$label: $((total - failed - skipped)) passed, $((failed + errors)) failed, ${skipped} skipped"
}
