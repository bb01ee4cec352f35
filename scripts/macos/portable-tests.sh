#!/usr/bin/env bash
# The macOS job's portable tests (scripts/test.sh on macOS runs this): the shared cases of trait Lane=Portable
# (tests/CloneCopy.Tests/SharedTestClasses.cs) that say something about macOS: the engine's decisions
# (CloneCopy.Tests.Engine) and the macOS cloner and path probe through their seam over the real files of the disk
# (CloneCopy.Tests.MacOS). Left out here, with the reason:
#   CloneCopy.Tests.Windows  the Windows cloner through the simulated kernel32, which models its host files' change time
#                            with Linux's statx (tests/Shared/Windows/RealFileIds.cs, ChangeTime): macOS's libc has no
#                            statx, so every case that queries a file would end in EntryPointNotFoundException, a fault
#                            of the model on this host, not of CloneCopy. They run in the linux and wine lanes.
# Ends with xunit's totals; exits 1 when a test failed or none ran. Written for bash 3.2 (macOS's /bin/bash).
#
#   bash scripts/macos/portable-tests.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
dotnet build tests/CloneCopy.Tests -c Release -nologo -clp:ErrorsOnly || exit 1
source scripts/lib/built.sh
results="artifacts/test-results"
mkdir -p "$results"
dotnet "$(built_assembly tests/CloneCopy.Tests)" -noLogo -noColor -trait Lane=Portable -namespace- CloneCopy.Tests.Windows \
  -xml "$results/macos-portable.xml"
status=$?
# xunit exits 0 when the filters match nothing: at least one test must have run.
if ! grep -Eq '<assembly [^>]* total="[1-9][0-9]*"' "$results/macos-portable.xml" 2>/dev/null; then
  echo "portable-tests: FAILED no test ran (do the filters still name the classes?)"
  exit 1
fi
exit "$status"
