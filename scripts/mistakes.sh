#!/usr/bin/env bash
# The mistakes exercise (docs/development.md, "Mistakes the tests catch"), repeatable: each small, realistic
# mistake is made by hand in a scratch worktree of HEAD, one at a time; the unit tests of tests/CloneCopy.Tests
# that should catch it run; the mistake is undone. Exits non-zero when a mistake fails no test (or the source it
# edits has changed so much that the mistake can no longer be made: then update it here).
#
#   bash scripts/mistakes.sh        # about a minute a mistake; needs what the linux lane needs (root for the
#                                   # loop filesystems, or CLONECOPY_TEST_* directories)
# Your own checkout is never touched.
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/clonecopy-mistakes.XXXXXX")
chmod 755 "$work"   # ReadOnlyRulesAsUnprivilegedUserTests runs the tests again as uid 65534
git worktree add -q --detach "$work/tree" HEAD || exit 1
trap 'git worktree remove --force "$work/tree"; rm -rf "$work"' EXIT
cd "$work/tree"
source scripts/lib/built.sh
dotnet build tests/CloneCopy.Tests -c Release -nologo -clp:ErrorsOnly >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 1; }
tests=$(built_assembly tests/CloneCopy.Tests)
status=0

# Without a mistake every test must pass, or a failure below would prove nothing.
baseline=$(dotnet "$tests" -noLogo -noColor -parallel none -namespace CloneCopy.Tests.Task 2>&1 | grep -E '\[FAIL\]')
if [[ -n $baseline ]]; then
  echo "mistakes: tests fail without any mistake; fix them first:"; echo "$baseline"; exit 1
fi

# mistake NAME FILE BEFORE AFTER TEST-FILTER...: FILE's text BEFORE replaced by AFTER, once.
mistake() {
  local name=$1 file=$2 before=$3 after=$4; shift 4
  if ! BEFORE=$before AFTER=$after python3 - "$file" <<'PY'
import os, sys
p = sys.argv[1]; s = open(p).read(); b = os.environ["BEFORE"]
if b not in s: sys.exit(1)
open(p, "w").write(s.replace(b, os.environ["AFTER"], 1))
PY
  then
    echo "mistakes: '$name' cannot be made any more ($file changed): update scripts/mistakes.sh"; status=1; return
  fi
  if ! dotnet build tests/CloneCopy.Tests -c Release -nologo -clp:ErrorsOnly >"$work/build.log" 2>&1; then
    echo "mistakes: '$name' does not build"; tail -5 "$work/build.log"; status=1; git checkout -q src; return
  fi
  local failed
  failed=$(dotnet "$tests" -noLogo -noColor -parallel none "$@" 2>&1 | grep -E '\[FAIL\]' | sed 's/^ *//; s/ \[FAIL\]$//')
  git checkout -q src
  if [[ -z $failed ]]; then
    echo "mistakes: '$name' fails no test"; status=1
  else
    echo "mistakes: '$name' fails:"; echo "$failed" | sed 's/^/    /'
  fi
}

mistake "a per-file FICLONE refusal (EINVAL) cached as the volume's" src/CloneCopy/Platform/Linux/LinuxErrors.cs \
  'EOPNOTSUPP or ENOTTY or ENOSYS =>' 'EOPNOTSUPP or ENOTTY or ENOSYS or EINVAL =>' -namespace CloneCopy.Tests.Task
mistake "copies across volumes left out of the CI guard" src/CloneCopy/Reporting/ProjectStatistics.cs \
  'NotClonedReason.EmptyFile or NotClonedReason.CopyFileClonesHere))' \
  'NotClonedReason.EmptyFile or NotClonedReason.CopyFileClonesHere or NotClonedReason.DifferentVolumes))' -namespace CloneCopy.Tests.Task
same_path='            if (string.Equals(sourceFull, destinationFull, MSBuildPlatformRules.PathComparison))
            {
                return new PairOutcome(PairResult.SamePath);
            }
'
not_incremental='            if (_options.FailIfNotIncremental)
            {
                _log.LogError(_log.GetResourceMessage(CopyMessages.FileComment), sourceSpec, destinationSpec);
                return PairOutcome.Failed;
            }
'
mistake "FailIfNotIncremental checked before the same-path rule" src/CloneCopy/Rules/PairCopier.cs \
  "$same_path
$not_incremental" "$not_incremental
$same_path" -namespace CloneCopy.Tests.Task
mistake "the parallel loop compares a source with the group's first, not the previous one" src/CloneCopy/Scheduling/CopyScheduler.cs \
  '            previousSource = pair.SourceAbsolute;' '            previousSource ??= pair.SourceAbsolute;' -namespace CloneCopy.Tests.Task
mistake "a read-only destination taken for writable" src/CloneCopy/Rules/ReadOnlyRules.cs \
  'status.IsReadOnly ?? new FileInfo(fullPath).IsReadOnly;' '(status.IsReadOnly ?? new FileInfo(fullPath).IsReadOnly) && fullPath.Length < 0;' -namespace CloneCopy.Tests.Task

if ((status == 0)); then echo "mistakes: every mistake fails a test"; fi
exit "$status"
