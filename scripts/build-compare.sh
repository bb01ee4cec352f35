#!/usr/bin/env bash
# Build-time comparison: generates a repository of N projects (a deep reference chain, shared packages)
# in DIR, builds it clean RUNS times with CloneCopy and with DisableCloneCopy=true, alternating (the first
# run of each is dropped as warm-up), and prints median build time, ratio, files and bytes Copy handled,
# and the disk space the outputs occupy (filesystem blocks used, so shared extents count once).
#
#   bash scripts/build-compare.sh DIR [PROJECTS=50] [RUNS=5]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
dir=$1
projects=${2:-50}
runs=${3:-5}
feed="$repo/artifacts/packages"
dotnet pack src/CloneCopy -c Release -o "$feed" -nologo -clp:ErrorsOnly >/dev/null
dotnet build tests/CloneCopy.Benchmarks -c Release -nologo -clp:ErrorsOnly >/dev/null

work="$dir/build-compare"
rm -rf "$work"
mkdir -p "$work"
dotnet "$repo/tests/CloneCopy.Benchmarks/bin/Release/net10.0/CloneCopy.Benchmarks.dll" generate-repo --out "$work/repo" --projects "$projects" --feed "$feed" >/dev/null
export NUGET_PACKAGES="$work/nuget-packages"   # on the same volume as the outputs, as a clone-friendly setup has it
export MSBUILDDISABLENODEREUSE=1 DOTNET_CLI_TELEMETRY_OPTOUT=1
(cd "$work/repo" && dotnet restore Generated.slnx -nologo -v:q >/dev/null)

clean() { find "$work/repo" -mindepth 2 -maxdepth 2 -type d \( -name bin -o -name obj \) -prune -exec rm -rf {}/Debug \; ; sync; }
used() { sync; df -Pk "$work" | awk 'NR == 2 {print $3 * 1024}'; }   # POSIX df: Linux, macOS, Git Bash
now() { perl -MTime::HiRes=time -e 'printf "%.3f\n", time'; }             # date +%N is not on macOS

declare -A times disk
for ((run = 0; run <= runs; run++)); do
  if ((run % 2 == 0)); then order="clonecopy builtin"; else order="builtin clonecopy"; fi
  for mode in $order; do
    clean
    before=$(used)
    flag=""; [[ $mode == builtin ]] && flag="-p:DisableCloneCopy=true"
    start=$(now)
    (cd "$work/repo" && dotnet build Generated.slnx --no-restore -nologo -v:n $flag >"$work/$mode.log" 2>&1) || { tail -30 "$work/$mode.log"; exit 1; }
    end=$(now)
    after=$(used)
    if ((run > 0)); then
      times[$mode]+="$(awk -v a="$end" -v b="$start" 'BEGIN {printf "%.3f", a - b}') "
    fi
    disk[$mode]=$((after - before))
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {if (NR%2) printf "%.2f\n", a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }
copies() { grep -cE 'Copying file from ' "$work/$1.log" || true; }
copied_bytes() {
  grep -oE 'Copying file from "[^"]+" to "[^"]+"' "$work/$1.log" | sed -E 's/.* to "([^"]+)"/\1/' | sort -u |
    while read -r f; do stat -c %s "$f" 2>/dev/null || echo 0; done | awk '{s+=$1} END {printf "%.0f", s/1048576}'
}
cc=$(echo "${times[clonecopy]}" | median)
bi=$(echo "${times[builtin]}" | median)
echo "## Build: $projects projects in a reference chain, $runs clean builds each (plus one warm-up), alternating"
echo
echo "| Copy task | median build | files Copy wrote | MiB they hold | disk used by outputs |"
echo "|---|---:|---:|---:|---:|"
echo "| MSBuild's Copy (DisableCloneCopy=true) | ${bi} s | $(copies builtin) | $(copied_bytes builtin) | $((disk[builtin] / 1048576)) MiB |"
echo "| CloneCopy | ${cc} s | $(copies clonecopy) | $(copied_bytes clonecopy) | $((disk[clonecopy] / 1048576)) MiB |"
echo
echo "Each build (s): MSBuild's Copy: ${times[builtin]}; CloneCopy: ${times[clonecopy]}"
echo
echo "CloneCopy ÷ MSBuild build time: $(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%.3f", a / b}')×; CloneCopy's own summary of its last build:"
grep -E '^ +CloneCopy: ' "$work/clonecopy.log" | sed -E 's/^ +//' | awk -F'[ (]' '{c+=$2} END {print "  " c " files cloned, in " NR " project summaries"}'
