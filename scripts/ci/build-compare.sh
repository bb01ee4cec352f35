#!/usr/bin/env bash
# clonecopy-compare in a Windows or macOS CI job (azure-pipelines.yml, .github/workflows/ci.yml): the tool's package
# checked end to end (scripts/check-build-compare.sh), then a generated 50-project repository in DIR (the job's ReFS
# volume, Dev Drive or APFS disk), 5 clean builds each way. The report goes to artifacts/build-compare/NAME/report.md,
# which each CI file puts on its run's summary page; the generated repository and its package cache (DIR/build-compare)
# are deleted afterwards, pass or fail, so that the job's later steps keep their room.
#
#   bash scripts/ci/build-compare.sh NAME DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
name=${1:?usage: build-compare.sh NAME DIR}
dir=${2:?usage: build-compare.sh NAME DIR}
mkdir -p artifacts
bash scripts/check-build-compare.sh
status=0
REPORT="artifacts/build-compare/$name" bash scripts/build-compare.sh "$dir" 50 5 > "artifacts/$name.md" || status=$?
rm -rf "${dir%/}/build-compare"
echo "ci build-compare: the report is artifacts/build-compare/$name/report.md (exit $status)"
exit "$status"
