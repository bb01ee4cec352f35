#!/usr/bin/env bash
# The Copy task's cost where real builds pay it: in fresh MSBuild nodes. Each run is a new
# `dotnet msbuild -nodeReuse:false -clp:PerformanceSummary` process; the Copy task's total comes from
# MSBuild's own performance summary. CloneCopy and MSBuild's Copy (DisableCloneCopy=true) alternate,
# RUNS times each; the tables give medians, min-max, and the goal beside each number.
#
#   bash scripts/cold-node-bench.sh DIR...      # one or more directories, each on the filesystem to measure
#   RUNS=9 bash scripts/cold-node-bench.sh /mnt/xfs /mnt/ext4
#   MT=1 bash scripts/cold-node-bench.sh /mnt/xfs   # also every shape under MSBuild's multithreaded mode (-mt)
#   MT=only SHAPES=sample RUNS=9 bash scripts/cold-node-bench.sh /mnt/xfs   # only -mt, only the sample repository
#
# Shapes: the first Copy in a node (one call, 3 files); 20 calls of 3 files; one call of 2,000 files
# shaped like bin/ folders, with the floor beside it (the minimal clone loop of tools/CloneCopy.Benchmarks,
# `floor`: open, fstat, open O_CREAT, FICLONE or copy_file_range, futimens, two closes per file, single-threaded,
# timed in a fresh process of its own on the same files, alternating with the two tasks); the same 2,000 files
# again with SkipUnchangedFiles when every destination is already up to date (a rebuild); a Copy with nothing to
# do (no files); 20,000 small files in 500 folders, with the build process's peak memory (maximum resident set);
# and the sample repository (samples/Repository) built whole.
#   SHAPES="one twenty bin2000 rebuild empty many sample" (the default) picks shapes.
#   BEFORE=<git revision> also measures CloneCopy as packed from that revision, alternating with the rest, on every
#   shape but the sample repository (a fourth column: what the changes since that revision were worth).
#   RUNTIME=11 runs every build with MSBuild 18.12's engine on .NET 11.0.0 instead of the installed SDK's MSBuild
#   (tools/MSBuild18Host, as the .NET 11 SDK's MSBuild runs; its MSBuild's Copy beside CloneCopy), e.g.
#   RUNTIME=11 SHAPES=one RUNS=15 bash scripts/cold-node-bench.sh /mnt/xfs /mnt/ext4 (not the sample shape: no restore).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
RUNS=${RUNS:-7}
feed="$repo/artifacts/packages"
source scripts/lib/step.sh
source scripts/lib/packages.sh
step "building the benchmarks (the floor)" "read the errors above" dotnet build tools/CloneCopy.Benchmarks -c Release -nologo -clp:ErrorsOnly
source scripts/lib/built.sh
floor="$(built_assembly tools/CloneCopy.Benchmarks)"
step "packing CloneCopy" "read the error above; the pack's restore needs NuGet's package source" \
  pack_clonecopy "$feed"
version=$(package_version "$feed" CloneCopy)
if [[ -n "${BEFORE:-}" ]]; then
  before_src=$(mktemp -d /tmp/cold-before.XXXXXX)
  trap 'rm -rf "$before_src"' EXIT
  git clone -q "$repo" "$before_src/repo" && git -C "$before_src/repo" checkout -q "$BEFORE"
  step "packing CloneCopy as of $BEFORE" "read the error above" dotnet pack "$before_src/repo/src/CloneCopy" -c Release -o "$before_src/feed" -nologo -clp:ErrorsOnly
fi
export MSBUILDDISABLENODEREUSE=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
if [[ ${RUNTIME:-} == 11 ]]; then
  msbuild18="$repo/artifacts/msbuild18host"
  step "publishing tools/MSBuild18Host (MSBuild 18.12 on .NET 11)" "read the error above" \
    dotnet publish tools/MSBuild18Host -c Release -o "$msbuild18" -nologo -clp:ErrorsOnly
  sdk_dir="$(dotnet --list-sdks | awk -v v="$(dotnet --version)" '$1 == v {gsub(/[][]/, "", $2); print $2 "/" v}')"
fi
# run_msbuild PROJECT [FLAGS]: one build in a fresh process, its task performance summary in the log.
run_msbuild() {
  local proj=$1; shift
  if [[ ${RUNTIME:-} == 11 ]]; then
    "$msbuild18/MSBuild18Host" --sdk "$sdk_dir" --no-restore -v:normal -clp:PerformanceSummary $(printf '%s\n' "$@" | sed 's/^-mt$/--mt/') "$proj"
  else
    dotnet msbuild "$proj" -nodeReuse:false -clp:PerformanceSummary -nologo "$@"
  fi
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {if (NR%2) printf "%.1f", a[(NR+1)/2]; else printf "%.1f", (a[NR/2]+a[NR/2+1])/2}'; }
range() { tr ' ' '\n' | grep -v '^$' | sort -g | awk 'NR==1{lo=$1} {hi=$1} END {printf "%s–%s", lo, hi}'; }
# copy_ms LOG: the Copy task's total, in ms, from MSBuild's task performance summary.
copy_ms() { awk '/Task Performance Summary/ {p = 1} p && $3 == "Copy" {print $1; exit}' "$1"; }

# setup DIR: the SDK unpacked beside the shapes (imported by path: no restore in the measured process).
setup() {
  local dir=$1
  rm -rf "$dir/cold" && mkdir -p "$dir/cold/sdk" "$dir/cold/src" "$dir/cold/bin"
  (cd "$dir/cold/sdk" && unzip -q "$feed/CloneCopy.$version.nupkg")
  if [[ -n "${BEFORE:-}" ]]; then mkdir -p "$dir/cold/sdk-before" && (cd "$dir/cold/sdk-before" && unzip -q "$before_src"/feed/CloneCopy.*.nupkg); fi
  for i in 1 2 3; do head -c 20000 /dev/urandom >"$dir/cold/src/f$i.dll"; done
  # 2,000 files shaped like bin/ folders: mostly small, some large (sizes from a fixed seed).
  awk 'BEGIN { srand(7); for (i = 0; i < 2000; i++) { r = rand(); s = r < 0.6 ? int(1024 + rand() * 30000) : r < 0.95 ? int(30000 + rand() * 300000) : int(300000 + rand() * 4000000); print i, s } }' |
    while read -r i s; do head -c "$s" /dev/zero | tr '\0' 'x' >"$dir/cold/bin/a$i.dll"; done
  sync
  local props="<Import Project=\"$dir/cold/sdk/Sdk/Sdk.props\" />" targets="<Import Project=\"$dir/cold/sdk/Sdk/Sdk.targets\" />"
  cat >"$dir/cold/one.proj" <<XML
<Project>$props
  <Target Name="Build"><Copy SourceFiles="src/f1.dll;src/f2.dll;src/f3.dll" DestinationFolder="out" /></Target>
$targets</Project>
XML
  { echo "<Project DefaultTargets=\"Build\">$props"; local deps=""
    for i in $(seq 1 20); do echo "  <Target Name=\"T$i\"><Copy SourceFiles=\"src/f1.dll;src/f2.dll;src/f3.dll\" DestinationFolder=\"out/$i\" /></Target>"; deps+="T$i;"; done
    echo "  <Target Name=\"Build\" DependsOnTargets=\"$deps\" />"; echo "$targets</Project>"; } >"$dir/cold/twenty.proj"
  # 20,000 small files (1-8 KiB) in 500 folders, as many small projects' outputs together.
  if [[ " ${SHAPES:-many} " == *" many "* ]]; then
    for ((d = 0; d < 500; d++)); do mkdir -p "$dir/cold/many/d$d"; done
    awk -v root="$dir/cold/many" 'BEGIN { srand(11); y = "y"; while (length(y) < 8192) y = y y
      for (i = 0; i < 20000; i++) { f = root "/d" int(i / 40) "/f" i ".dll"; printf "%s", substr(y, 1, int(1024 + rand() * 7168)) >f; close(f) } }'
  fi
  sync
  cat >"$dir/cold/many.proj" <<XML
<Project>$props
  <ItemGroup><Small Include="many/**/*.dll" /></ItemGroup>
  <Target Name="Build"><Copy SourceFiles="@(Small)" DestinationFiles="@(Small->'out/%(RecursiveDir)%(Filename)%(Extension)')" /></Target>
$targets</Project>
XML
  cat >"$dir/cold/rebuild.proj" <<XML
<Project>$props
  <ItemGroup><Binaries Include="bin/*.dll" /></ItemGroup>
  <Target Name="Build"><Copy SourceFiles="@(Binaries)" DestinationFolder="uptodate" SkipUnchangedFiles="true" /></Target>
$targets</Project>
XML
  cat >"$dir/cold/empty.proj" <<XML
<Project>$props
  <ItemGroup><Nothing Include="nothing/*.dll" /></ItemGroup>
  <Target Name="Build"><Copy SourceFiles="@(Nothing)" DestinationFolder="out" SkipUnchangedFiles="true" /></Target>
$targets</Project>
XML
  rm -rf "$dir/cold/uptodate" && (cd "$dir/cold" && dotnet msbuild rebuild.proj -nologo -v:q -p:DisableCloneCopy=true >/dev/null)
  cat >"$dir/cold/bin2000.proj" <<XML
<Project>$props
  <ItemGroup><Binaries Include="bin/*.dll" /></ItemGroup>
  <Target Name="Build"><Copy SourceFiles="@(Binaries)" DestinationFolder="out" /></Target>
$targets</Project>
XML
  if [[ -n "${BEFORE:-}" ]]; then for p in "$dir"/cold/*.proj; do sed "s|$dir/cold/sdk/|$dir/cold/sdk-before/|g" "$p" >"${p%.proj}-before.proj"; done; fi
  copy_sample Repository "$dir/cold/sample" "$feed" "$version"
  (cd "$dir/cold/sample" && NUGET_PACKAGES="$dir/cold/nuget" \
    step "restoring the sample repository" "read the error above; the restore needs the packed feed ($feed) and NuGet's package source" \
    dotnet restore Sample.slnx)
}

# measure DIR SHAPE [-mt]: RUNS alternating pairs (triples for bin2000, with the floor), into
# samples[SHAPE.clonecopy], samples[SHAPE.builtin] (and samples[SHAPE.floor]); peak[SHAPE.MODE] for "many".
declare -A samples peak
measure() {
  local dir=$1 shape=$2 mt=${3:-} run mode order flag log
  for ((run = 0; run < RUNS; run++)); do
    local modes=(clonecopy builtin) i
    [[ $shape == bin2000 ]] && modes+=(floor)
    [[ -n "${BEFORE:-}" && $shape != sample ]] && modes+=(before)
    order=""; for ((i = 0; i < ${#modes[@]}; i++)); do order+="${modes[(run + i) % ${#modes[@]}]} "; done
    for mode in $order; do
      flag="$mt"; [[ $mode == builtin ]] && flag+=" -p:DisableCloneCopy=true"
      local proj="$shape.proj"; [[ $mode == before ]] && proj="$shape-before.proj"
      log="$dir/cold/$shape.$mode.log"
      if [[ $mode == floor ]]; then
        rm -rf "$dir/cold/out"; sync
        samples[$shape.$mode]+="$(cd "$dir/cold" && dotnet "$floor" floor --from bin --to out --pattern '*.dll') "
        continue
      elif [[ $shape == many ]]; then
        rm -rf "$dir/cold/out"; sync
        (cd "$dir/cold" && /usr/bin/time -f 'peak-kib %M' bash -c "$(declare -f run_msbuild); msbuild18='${msbuild18:-}' sdk_dir='${sdk_dir:-}' RUNTIME='${RUNTIME:-}' run_msbuild $proj $flag" >"$log" 2>&1)
        peak[$shape.$mode]+="$(awk '/^peak-kib/ {print $2}' "$log") "
      elif [[ $shape == sample ]]; then
        (cd "$dir/cold/sample" && find src -mindepth 2 -maxdepth 3 \( -path '*/bin' -o -path '*/obj/Debug' \) -prune -exec rm -rf {} + && \
          NUGET_PACKAGES="$dir/cold/nuget" dotnet build Sample.slnx --no-restore -nodeReuse:false -clp:PerformanceSummary -nologo -tl:off $flag >"$log" 2>&1)
      elif [[ $shape == rebuild || $shape == empty ]]; then
        (cd "$dir/cold" && run_msbuild "$proj" $flag >"$log" 2>&1)
      else
        rm -rf "$dir/cold/out"; sync
        (cd "$dir/cold" && run_msbuild "$proj" $flag >"$log" 2>&1)
      fi
      samples[$shape.$mode]+="$(copy_ms "$log") "
    done
  done
}

echo "## Cold MSBuild nodes: the Copy task's total per build (ms), medians of $RUNS alternating runs"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) cores, kernel $(uname -r), ${RUNTIME:+MSBuild 18.12.2 on .NET 11.0.0 with the }$(dotnet --version) SDK${RUNTIME:+ (its toolset)}; command: \`${RUNTIME:+RUNTIME=$RUNTIME }${BEFORE:+BEFORE=$BEFORE }${MT:+MT=$MT }${SHAPES:+SHAPES=\"$SHAPES\" }RUNS=$RUNS bash scripts/cold-node-bench.sh $*\`"
echo
echo "| filesystem | shape | CloneCopy | MSBuild's Copy | CloneCopy vs MSBuild | goal | |"
echo "|---|---|---:|---:|---:|---|---|"
modes=("")
case ${MT:-} in "") ;; only) modes=("-mt") ;; *) modes+=("-mt") ;; esac
for dir in "$@"; do
  fsname=$(stat -f -c %T "$dir")
  setup "$dir"
  for mt in "${modes[@]}"; do
  for shape in ${SHAPES:-one twenty bin2000 rebuild empty many sample}; do
    samples[$shape.clonecopy]=""; samples[$shape.builtin]=""; samples[$shape.floor]=""; samples[$shape.before]=""; peak[$shape.clonecopy]=""; peak[$shape.builtin]=""
    measure "$dir" "$shape" "$mt"
    cc=$(echo "${samples[$shape.clonecopy]}" | median); bi=$(echo "${samples[$shape.builtin]}" | median)
    case $mt$shape in
      -mtone) label="-mt: first Copy in a process (1 call, 3 files)"; verdict=$(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%+.1f ms", a - b}'); goal="≤ +0 ms"; met=$(awk -v a="$cc" -v b="$bi" 'BEGIN {print (a <= b) ? "met" : "missed"}') ;;
      one) label="first Copy in a node (1 call, 3 files)"; verdict=$(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%+.1f ms", a - b}'); goal="≤ +5 ms"; met=$(awk -v a="$cc" -v b="$bi" 'BEGIN {print (a - b <= 5) ? "met" : "missed"}') ;;
      twenty) label="20 calls of 3 files"; verdict=$(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%.2f×", a / b}'); goal="≤ 1.0×"; met=$(awk -v a="$cc" -v b="$bi" 'BEGIN {print (a / b <= 1.0) ? "met" : "missed"}') ;;
      bin2000) label="1 call, 2,000 bin-shaped files"; verdict=$(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%.2f×", a / b}'); goal="≤ 0.8×"; met=$(awk -v a="$cc" -v b="$bi" 'BEGIN {print (a / b <= 0.8) ? "met" : "missed"}')
        fl=$(echo "${samples[$shape.floor]}" | median)
        floorline="| $fsname | floor (minimal clone loop), same 2,000 files | $fl ($(echo "${samples[$shape.floor]}" | range)) | | CloneCopy $(awk -v a="$cc" -v f="$fl" 'BEGIN {printf "%.2f×", a / f}'), MSBuild's Copy $(awk -v b="$bi" -v f="$fl" 'BEGIN {printf "%.2f×", b / f}') the floor | CloneCopy ≤ 1.3× | $(awk -v a="$cc" -v f="$fl" 'BEGIN {print (a / f <= 1.3) ? "met" : "missed"}') |" ;;
      -mtrebuild|rebuild) label="${mt:+-mt: }rebuild, 2,000 files all up to date (SkipUnchangedFiles)"; verdict=$(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%.2f×", a / b}'); goal="≤ 1.0×"; met=$(awk -v a="$cc" -v b="$bi" 'BEGIN {print (a / b <= 1.0) ? "met" : "missed"}') ;;
      -mtempty|empty) label="${mt:+-mt: }a Copy with nothing to do"; verdict=$(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%+.1f ms", a - b}'); goal="≤ +0 ms"; met=$(awk -v a="$cc" -v b="$bi" 'BEGIN {print (a <= b) ? "met" : "missed"}') ;;
      -mtmany|many) label="${mt:+-mt: }1 call, 20,000 small files in 500 folders"; verdict=$(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%.2f×", a / b}'); goal="≤ 1.0×"; met=$(awk -v a="$cc" -v b="$bi" 'BEGIN {print (a / b <= 1.0) ? "met" : "missed"}')
        pc=$(echo "${peak[$shape.clonecopy]}" | median); pb=$(echo "${peak[$shape.builtin]}" | median)
        floorline="| $fsname | ${mt:+-mt: }peak memory of that build (MiB) | $(awk -v k="$pc" 'BEGIN {printf "%.0f", k / 1024}') | $(awk -v k="$pb" 'BEGIN {printf "%.0f", k / 1024}') | $(awk -v a="$pc" -v b="$pb" 'BEGIN {printf "%.3f×", a / b}') | ≤ 1.05× | $(awk -v a="$pc" -v b="$pb" 'BEGIN {print (a / b <= 1.05) ? "met" : "missed"}') |" ;;
      -mt*) label="-mt: $(case $shape in twenty) echo "20 calls of 3 files";; bin2000) echo "1 call, 2,000 bin-shaped files";; sample) echo "samples/Repository built (3 projects)";; esac)"
        verdict=$(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%.2f×", a / b}'); goal="≤ 1.0×"; met=$(awk -v a="$cc" -v b="$bi" 'BEGIN {print (a / b <= 1.0) ? "met" : "missed"}') ;;
      sample) label="samples/Repository built (3 projects)"; verdict=$(awk -v a="$cc" -v b="$bi" 'BEGIN {printf "%.2f×", a / b}'); goal="(reported)"; met="" ;;
    esac
    echo "| $fsname | $label | $cc ($(echo "${samples[$shape.clonecopy]}" | range)) | $bi ($(echo "${samples[$shape.builtin]}" | range)) | $verdict | $goal | $met |"
    if [[ -n "${floorline:-}" ]]; then echo "$floorline"; floorline=""; fi
    if [[ -n "${samples[$shape.before]}" ]]; then
      be=$(echo "${samples[$shape.before]}" | median)
      echo "| $fsname | ${mt:+-mt: }same, CloneCopy as of $BEFORE | $be ($(echo "${samples[$shape.before]}" | range)) | | now $(awk -v a="$cc" -v b="$be" 'BEGIN {printf "%.2f×", a / b}') of then | | |"
    fi
  done
  done
done
