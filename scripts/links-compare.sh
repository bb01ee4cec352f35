#!/usr/bin/env bash
# CloneCopyClonesInsteadOfLinks, measured: a generated repository (N projects in a reference chain, shared
# packages) built clean three ways on the same filesystem, alternating, RUNS times each (plus a warm-up):
#   hard links   MSBuild's link properties on (CreateHardLinksFor...IfPossible=true): links into obj/ and the
#                package cache;
#   clones       the same properties with CloneCopyClonesInsteadOfLinks=true;
#   copies       no link properties (on Linux, File.Copy and CloneCopy both clone on a reflink filesystem).
# Prints median build time, the ratio to hard links, and the disk the outputs take (blocks used, so shared
# extents and hard links count once), with the link count of one copy-local assembly as a check.
#
#   bash scripts/links-compare.sh DIR [PROJECTS=20] [RUNS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
dir=$1
projects=${2:-20}
runs=${3:-3}
feed="$repo/artifacts/packages"
source scripts/lib/step.sh
source scripts/lib/packages.sh
step "packing CloneCopy" "read the errors above; the restore needs NuGet's package source" pack_clonecopy "$feed"
step "building the benchmarks" "read the errors above" dotnet build tools/CloneCopy.Benchmarks -c Release -nologo

work="$dir/links-compare"
rm -rf "$work" && mkdir -p "$work"
source scripts/lib/built.sh
dotnet "$(built_assembly tools/CloneCopy.Benchmarks)" generate-repo --out "$work/repo" --projects "$projects" --feed "$feed" >/dev/null
export NUGET_PACKAGES="$work/nuget-packages" MSBUILDDISABLENODEREUSE=1 DOTNET_CLI_TELEMETRY_OPTOUT=1
(cd "$work/repo" && dotnet restore Generated.slnx -nologo -v:q >/dev/null)

links="-p:CreateHardLinksForCopyLocalIfPossible=true -p:CreateHardLinksForCopyFilesToOutputDirectoryIfPossible=true -p:CreateHardLinksForAdditionalFilesIfPossible=true"
declare -A args=([hardlinks]="$links" [clones]="$links -p:CloneCopyClonesInsteadOfLinks=true" [copies]="")
clean() { find "$work/repo" -mindepth 2 -maxdepth 2 -type d \( -name bin -o -name obj \) -prune -exec rm -rf {}/Debug \; ; sync; }
used() { sync; df -Pk "$work" | awk 'NR == 2 {print $3 * 1024}'; }
now() { perl -MTime::HiRes=time -e 'printf "%.3f\n", time'; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {if (NR%2) printf "%.2f\n", a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }

declare -A times disk nlink
modes=(hardlinks clones copies)
for ((run = 0; run <= runs; run++)); do
  order=("${modes[@]:run % 3}" "${modes[@]:0:run % 3}")   # rotate who goes first
  for mode in "${order[@]}"; do
    clean
    before=$(used)
    start=$(now)
    (cd "$work/repo" && dotnet build Generated.slnx --no-restore -nologo -v:n ${args[$mode]} >"$work/$mode.log" 2>&1) || { tail -30 "$work/$mode.log"; exit 1; }
    end=$(now)
    after=$(used)
    ((run > 0)) && times[$mode]+="$(awk -v a="$end" -v b="$start" 'BEGIN {printf "%.3f", a - b}') "
    disk[$mode]=$((after - before))
    sample=$(find "$work/repo" -path '*/bin/Debug/*' -name 'Newtonsoft.Json.dll' | tail -1)
    nlink[$mode]=$(stat -c %h "$sample")
  done
done

hl=$(echo "${times[hardlinks]}" | median)
echo "## Links, clones in place of links, and copies: $projects projects, $runs clean builds each (plus a warm-up), rotating order"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) cores, kernel $(uname -r), $(stat -f -c %T "$dir"), $(dotnet --version) SDK; command: \`bash scripts/links-compare.sh $*\`"
echo
echo "| build | median build | ÷ hard links | disk used by outputs | links of a copy-local assembly |"
echo "|---|---:|---:|---:|---:|"
for mode in "${modes[@]}"; do
  m=$(echo "${times[$mode]}" | median)
  echo "| $mode | ${m} s | $(awk -v a="$m" -v b="$hl" 'BEGIN {printf "%.3f", a / b}')× | $((disk[$mode] / 1048576)) MiB | ${nlink[$mode]} |"
done
echo
echo "Each build (s): hard links: ${times[hardlinks]}; clones: ${times[clones]}; copies: ${times[copies]}"
grep -hE '^ +CloneCopy: ' "$work/clones.log" | awk -F'in place of links' 'NF > 1 {n++} END {print "Summaries that report clones in place of links (clones build): " n+0}'
