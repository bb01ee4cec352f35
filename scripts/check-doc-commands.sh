#!/usr/bin/env bash
# CI for the commands a new user copies out of the README and docs/build-compare.md: every fenced block opened with
# ```bash fresh-clone is run as written, line by line (bash -e), from a fresh clone of this commit with its tags
# removed (so it packs a pre-release, as a user's clone does), with an empty HOME and empty NuGet caches, against a
# small repository of the user's own (two projects, its own NuGet.config with <clear /> and package source mapping,
# Directory.Build.props and global.json). The one change made to a block: "path/to/" is that repository's folder.
# Each block starts from the user's repository as committed. Then checks what each block should have done: the
# SDK added (the version packed written into global.json, the user's files merged, not replaced) and building
# with a summary line per project; the comparison tool installed at the version packed, run, its report written;
# the tool package's size as docs/build-compare.md gives it. Ends with one line: "doc-commands: passed (...)" or
# "doc-commands: FAILED <what>". Needs git, jq and the .NET SDK; nothing it needs is optional, so it never skips.
#
#   bash scripts/check-doc-commands.sh          # 653 s on 2 cores with little else running; KEEP=1 keeps its folder
set -uo pipefail
# A native jq.exe (Git Bash on Windows) ends its lines with CR.
jq() { command jq "$@" | tr -d '\r'; }
cd "$(dirname "$0")/.."
repo=$(pwd)
started=$(date +%s)
failures=()
fail() { failures+=("$*"); echo "!! $*"; }
finish() {
  if ((${#failures[@]})); then
    echo "doc-commands: FAILED $(IFS=';'; echo "${failures[*]}")"
    exit 1
  fi
  echo "doc-commands: passed ($*, $(( $(date +%s) - started )) s)"
  exit 0
}
for tool in git jq dotnet; do
  command -v "$tool" >/dev/null || { fail "$tool is not installed"; finish; }
done

commit=$(git rev-parse HEAD)
[[ -z "$(git status --porcelain --untracked-files=no)" ]] || echo "== note: uncommitted changes are not tested: the fresh clone is of $commit"
work=$(mktemp -d "${TMPDIR:-/tmp}/clonecopy-doc-commands.XXXXXX")
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT
clone="$work/clonecopy"
users="$work/your-repository"

echo "== a fresh clone of $commit, without tags, in $clone"
# A local clone copies every object, so the commit is there even where no branch points at it (a CI checkout).
git clone -q --no-checkout "$repo" "$clone" && git -C "$clone" checkout -q --detach "$commit" || { fail "cloning $repo at $commit"; finish; }
git -C "$clone" tag -l | xargs -r git -C "$clone" tag -d >/dev/null
[[ -z "$(git -C "$clone" tag -l)" ]] || { fail "the clone still has tags"; finish; }

# A new user's machine: nothing in HOME, nothing in any NuGet cache. ~/.dotnet/tools is on PATH as the .NET SDK's
# installers put it there for every user (dotnet's first run says how, where it is not). Not user-like but kept:
# no MSBuild node outlives a build (the machine's setting), and the tool's reports stay off the CI job's summary page.
mkdir -p "$work/home" "$work/nuget-packages" "$work/nuget-http-cache" "$work/nuget-plugins-cache" "$work/nuget-scratch"
export HOME="$work/home" DOTNET_CLI_HOME="$work/home" NUGET_PACKAGES="$work/nuget-packages" NUGET_HTTP_CACHE_PATH="$work/nuget-http-cache" \
  NUGET_PLUGINS_CACHE_PATH="$work/nuget-plugins-cache" NUGET_SCRATCH="$work/nuget-scratch" PATH="$PATH:$work/home/.dotnet/tools" \
  MSBUILDDISABLENODEREUSE=1 DOTNET_CLI_TELEMETRY_OPTOUT=1
unset XDG_CACHE_HOME XDG_DATA_HOME XDG_CONFIG_HOME TF_BUILD GITHUB_STEP_SUMMARY

echo "== the user's repository, $users: Your.sln, src/App (Newtonsoft.Json) -> src/Lib, its own NuGet set-up"
source scripts/lib/users-repository.sh
users_repository "$users" > "$work/users-repository.log" 2>&1 || { cat "$work/users-repository.log"; fail "making the user's repository"; finish; }
reset_users_repository() { git -C "$users" clean -xdfq && git -C "$users" checkout -q -- .; }

# The blocks, from the clone's own files: "file|heading|block file", in the order the documents have them.
blocks=()
for doc in README.md docs/build-compare.md; do
  mkdir -p "$work/blocks/$doc"
  while IFS= read -r line; do blocks+=("$line"); done < <(awk -v doc="$doc" -v out="$work/blocks/$doc" '
    /^#+ / { heading = $0; sub(/^#+ /, "", heading) }
    /^```bash fresh-clone$/ { n++; file = out "/" n ".sh"; printf "" > file; inside = 1; print doc "|" heading "|" file; next }
    inside && /^```$/ { inside = 0; next }
    inside { print > file }
  ' "$clone/$doc")
done
# The sections whose commands a new user runs first: each must have its block, or this check would hold nothing.
for wanted in "README.md|Adding CloneCopy" "README.md|Measuring it on your repository" "docs/build-compare.md|Running it"; do
  printf '%s\n' "${blocks[@]}" | grep -qF "$wanted|" || fail "${wanted%%|*} has no \`\`\`bash fresh-clone block under \"${wanted#*|}\""
done
((${#blocks[@]})) || finish

# Every documented way to install or run the tool names --prerelease or a --version: a clone without tags packs a
# pre-release, which dotnet tool install and dnx pass over without it (the YAML for CI and the prose included).
while IFS= read -r line; do
  [[ $line == *--prerelease* || $line == *--version* ]] || fail "a documented command takes no pre-release: ${line:0:160}"
done < <(cd "$clone" && grep -hoE '(dotnet tool (install|update)|dotnet dnx) [^`]*' README.md docs/build-compare.md docs/adding-clonecopy.md)

summary=()
for entry in "${blocks[@]}"; do
  IFS='|' read -r doc heading block <<<"$entry"
  name="$doc \"$heading\""
  if grep -qE 'X\.Y\.Z|<[^>]*version[^>]*>' "$block"; then
    fail "$name: the block leaves a version for the user to fill in: $(grep -m1 -E 'X\.Y\.Z|<[^>]*version[^>]*>' "$block")"
    continue
  fi
  sed -i "s|path/to/|$work/|g" "$block"
  reset_users_repository
  echo "== $name, from $clone:"
  sed 's/^/   $ /' "$block"
  log="$block.log"
  begin=$(date +%s)
  (cd "$clone" && bash -exo pipefail "$block") > "$log" 2>&1
  code=$?
  seconds=$(( $(date +%s) - begin ))
  sed 's/^/   | /' "$log" | tail -n 60   # the whole output is in $log (KEEP=1 keeps it)
  echo "   ($seconds s, exit code $code)"
  summary+=("$doc \"$heading\" $seconds s")
  if ((code != 0)); then
    fail "$name: exit code $code at: $(grep -E '^\+ ' "$log" | tail -1 | cut -c3-)"
    continue
  fi

  # What each block should have done.
  if grep -q 'scripts/add-clonecopy.cs' "$block"; then
    source scripts/lib/check-added-sdk.sh
    check_added_sdk "$name" "$clone" "$users" "$log"
  fi
  if grep -qE '^clonecopy-compare ' "$block"; then
    packed=$(cd "$clone/artifacts/packages" && ls CloneCopy.BuildCompare.[0-9]*.nupkg 2>/dev/null)
    packed=${packed#CloneCopy.BuildCompare.}; packed=${packed%.nupkg}
    installed=$(clonecopy-compare --version 2>&1)
    [[ -n "$packed" && "$installed" == "$packed" ]] || fail "$name: the tool installed is $installed, the one packed $packed"
    output=$(sed -n 's/^clonecopy-compare: .* written to //p' "$log" | tail -1)
    json="$output/results.json"
    if [[ ! -s "$output/report.md" || ! -s "$json" ]]; then
      fail "$name: no report.md and results.json where the tool said it wrote them ($output)"
    else
      projects=$(jq '[.builds[] | select(.way == "clonecopy" and (.warmUp | not))][-1].copies.projects' "$json")
      [[ "$projects" == 2 ]] || fail "$name: the report counts $projects CloneCopy summary lines in a build, the repository has 2 projects"
      jq -e '.cloneCopySource | startswith("injected")' "$json" >/dev/null || fail "$name: CloneCopy was not injected: $(jq -r .cloneCopySource "$json")"
    fi
  fi
  if grep -q 'dotnet dnx CloneCopy.BuildCompare' "$block" && grep -q -- '--help' "$block"; then
    grep -q -- '--runs' "$log" || fail "$name: dotnet dnx did not show the tool's help"
  fi
done

# docs/build-compare.md's figures for the tool's size, against what was packed and installed here: within 15 %, so
# that a figure goes stale only by a change large enough to mention.
tool_package=$(ls "$clone"/artifacts/packages/CloneCopy.BuildCompare.[0-9]*.nupkg 2>/dev/null | head -1)
if [[ -f "$tool_package" && -d "$HOME/.dotnet/tools/.store" ]]; then
  about() { awk -v said="$1" -v bytes="$2" 'BEGIN { mb = bytes / 1048576; exit !(said != "" && mb >= said * 0.85 && mb <= said * 1.15) }'; }
  said=$(grep -oE 'The package is about [0-9.]+ MB' "$clone/docs/build-compare.md" | head -1 | grep -oE '[0-9.]+')
  bytes=$(wc -c < "$tool_package" | tr -d ' ')
  about "$said" "$bytes" || fail "docs/build-compare.md: \"The package is about ${said:-?} MB\", packed here $bytes bytes"
  said=$(grep -oE 'takes about [0-9.]+ MB installed' "$clone/docs/build-compare.md" | head -1 | grep -oE '[0-9.]+')
  bytes=$(( $(du -sk "$HOME/.dotnet/tools" | cut -f1) * 1024 ))
  about "$said" "$bytes" || fail "docs/build-compare.md: \"takes about ${said:-?} MB installed\", installed here $bytes bytes (du -sk ~/.dotnet/tools)"
else
  fail "no tool was packed and installed, so docs/build-compare.md's size figures were not checked"
fi

finish "${#blocks[@]} blocks from a fresh clone of ${commit:0:7} without tags: $(printf '%s; ' "${summary[@]}" | sed 's/; $//')"
