# Sourced by scripts/check-doc-commands.sh. check_added_sdk NAME CLONE REPOSITORY LOG: after the README's "Adding
# CloneCopy" block: the version packed in CLONE is the one in REPOSITORY's feed and global.json, a pre-release
# (the clone has no tags); the user's three files were merged (what they had is still there) and nothing else of
# theirs changed; and the block's own build said CloneCopy's summary line for both projects. Calls fail for each miss.
check_added_sdk() {
  local name=$1 clone=$2 users=$3 log=$4 packed added changed
  packed=$(cd "$clone/artifacts/packages" && ls CloneCopy.[0-9]*.nupkg 2>/dev/null)
  added=$(cd "$users/local-packages" 2>/dev/null && ls CloneCopy.[0-9]*.nupkg 2>/dev/null)
  [[ -n "$packed" && "$added" == "$packed" ]] || fail "$name: the repository's feed holds '$added', the clone packed '$packed'"
  local version=${packed#CloneCopy.}; version=${version%.nupkg}
  [[ $version == 1.0.0-alpha.0.* ]] || fail "$name: a clone without tags packed $version, not a pre-release 1.0.0-alpha.0.N"
  grep -qF "\"CloneCopy\": \"$version\"" "$users/global.json" || fail "$name: global.json does not pin CloneCopy $version: $(tr -d '\n' < "$users/global.json")"
  grep -qF '"rollForward": "latestFeature"' "$users/global.json" && grep -qF '// the SDK this repository builds with' "$users/global.json" \
    || fail "$name: global.json lost the user's own entries"
  grep -qF '<add key="clonecopy" value="local-packages" />' "$users/NuGet.config" || fail "$name: NuGet.config has no feed for local-packages"
  grep -qF '<package pattern="CloneCopy" />' "$users/NuGet.config" || fail "$name: NuGet.config's package source mapping does not map CloneCopy"
  grep -qF '<clear />' "$users/NuGet.config" && grep -qF '<package pattern="*" />' "$users/NuGet.config" || fail "$name: NuGet.config lost the user's own entries"
  grep -qF '<Sdk Name="CloneCopy" />' "$users/Directory.Build.props" || fail "$name: Directory.Build.props does not name the CloneCopy SDK"
  grep -qF '<Nullable>enable</Nullable>' "$users/Directory.Build.props" || fail "$name: Directory.Build.props lost the user's own property"
  changed=$(git -C "$users" status --porcelain | LC_ALL=C sort | tr '\n' ' ')
  [[ "$changed" == " M Directory.Build.props  M NuGet.config  M global.json " ]] || fail "$name: the repository's changes are not the three files merged: $changed"
  grep -qF "git add -f local-packages/$packed" "$log" || fail "$name: nothing said that the user's .gitignore leaves the package out of a commit"
  for project in App Lib; do
    grep -qE "^ *CloneCopy: [0-9]+ files? cloned \([0-9.]+ [KMGT]?B not written\).* \[$project\]$" "$log" || fail "$name: the build said no CloneCopy summary line for $project"
  done
}
