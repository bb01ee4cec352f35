# step <what failed means> <what to do> <command...>
# Runs a command with its output kept in a log instead of the terminal; when it fails, prints the command,
# the end of its output (where dotnet and apt put their errors) and what to do, then exits with its status.
# Sourced by the scripts a user runs, so that no failing step is silent.
step() {
  local what=$1 advice=$2; shift 2
  local log status
  log=$(mktemp "${TMPDIR:-/tmp}/clonecopy-step.XXXXXX")
  if "$@" >"$log" 2>&1; then
    rm -f "$log"
    return 0
  else
    status=$?
  fi
  {
    echo "!! $what failed (exit $status): $*"
    tail -n 40 "$log" | sed 's/^/   | /'
    echo "!! full output: $log"
    echo "!! what to do: $advice"
  } >&2
  exit "$status"
}
