#!/usr/bin/env bash
# Checks a folder of packages as a user meets them: the release stage of azure-pipelines.yml runs it on the very
# packages it is about to push, the Linux job and scripts/test.sh on every push on the packages of that commit.
#
#   bash scripts/check-release.sh FOLDER [VERSION]
#
# FOLDER holds CloneCopy.<version>.nupkg and CloneCopy.BuildCompare.<version>.nupkg; VERSION (a tag without its v)
# is the version they must have. Checked: one version for both packages and every assembly in them; a release
# version has its section in CHANGELOG.md (written to FOLDER/../changelog-<version>.md for the run's artifacts), a
# pre-release needs the Unreleased section; README, licence, symbols and Source Link inside; no build-machine path;
# the package restored from a folder feed into fresh projects every way the README names (global.json with
# Directory.Build.props, the Sdk element with a version, PackageReference, Central Package Management's
# GlobalPackageReference), each build running CloneCopy's Copy from that package; clonecopy-compare installed with
# `dotnet tool install` and run with `dotnet dnx`, both saying the version. Ends with one line,
# "release: N passed, N failed"; exits 1 when any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
source scripts/lib/packages.sh
source scripts/lib/built.sh
folder=$(cd "${1:?usage: check-release.sh FOLDER-OF-NUPKGS [VERSION]}" && pwd)
expected=${2:-}
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAILED: $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
finish() { echo "release: $passed passed, $failed failed"; ((failed == 0)); exit $?; }

work=$(mktemp -d "${TMPDIR:-/tmp}/clonecopy-release.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A package cache of this check alone: a version NuGet already has is never read from the feed again, so a cache
# shared with earlier builds of the same version could hide the package under test.
export NUGET_PACKAGES="$work/nuget-packages"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

echo "== the packages in $folder"
version=$(package_version "$folder" CloneCopy) || { bad "one CloneCopy package in $folder"; finish; }
tool_version=$(package_version "$folder" CloneCopy.BuildCompare) || { bad "one CloneCopy.BuildCompare package in $folder"; finish; }
echo "  CloneCopy $version, CloneCopy.BuildCompare $tool_version"
check "both packages have one version" test "$tool_version" == "$version"
if [[ -n "$expected" ]]; then
  check "the version is the tag's ($expected)" test "$version" == "$expected"
fi
sdk="$folder/CloneCopy.$version.nupkg"
tool="$folder/CloneCopy.BuildCompare.$version.nupkg"
mkdir -p "$work/sdk" "$work/tool-package"
unzip -q "$sdk" -d "$work/sdk" && unzip -q "$tool" -d "$work/tool-package" || { bad "unzipping the packages"; finish; }

echo "== CHANGELOG.md"
# The sections are "## [1.2.3] - 2026-12-01" (Keep a Changelog), then "## [Unreleased]" for what is not yet released.
section() { awk -v head="## [$1]" 'index($0, head) == 1 { on = 1; print; next } on && /^## / { exit } on { print }' CHANGELOG.md; }
if [[ "$version" == *-* ]]; then
  check "CHANGELOG.md has an Unreleased section (a pre-release's changes go there)" grep -q '^## \[Unreleased\]' CHANGELOG.md
else
  notes="$folder/../changelog-$version.md"
  section "$version" > "$notes"
  if grep -qE "^## \[$version\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$" "$notes" && grep -qE '^### (Added|Changed|Deprecated|Removed|Fixed|Security)$' "$notes" && grep -q '^- ' "$notes"; then
    ok "CHANGELOG.md has the section '## [$version] - date' with entries (written to $(cd "$folder/.." && pwd)/changelog-$version.md)"
  else
    bad "CHANGELOG.md has no section '## [$version] - YYYY-MM-DD' with an Added/Changed/Fixed heading and entries"
    rm -f "$notes"
  fi
fi
# Every heading of a section is one of Keep a Changelog's, so a misspelt one cannot hide an entry.
check "every ### heading in CHANGELOG.md is Added, Changed, Deprecated, Removed, Fixed or Security" \
  bash -c '! grep -E "^### " CHANGELOG.md | grep -vqE "^### (Added|Changed|Deprecated|Removed|Fixed|Security)$"'

echo "== inside the packages"
nuspec="$work/sdk/CloneCopy.nuspec"
check "CloneCopy's nuspec says version $version" grep -q "<version>$version</version>" "$nuspec"
check "CloneCopy carries README.md, the one in the repository" cmp -s "$work/sdk/README.md" README.md
check "CloneCopy carries LICENSE, the one in the repository" cmp -s "$work/sdk/LICENSE" LICENSE
check "CloneCopy's nuspec names the MIT licence, README.md and the repository with its commit" \
  bash -c "grep -q '<license type=\"expression\">MIT</license>' '$nuspec' && grep -q '<readme>README.md</readme>' '$nuspec' && grep -qE '<repository type=\"git\" url=\"https://github.com/clonecopy/clonecopy\" commit=\"[0-9a-f]{40}\"' '$nuspec'"
check "the tool's nuspec names the MIT licence, its README and the repository" \
  bash -c "n='$work/tool-package/CloneCopy.BuildCompare.nuspec'; grep -q '<license type=\"expression\">MIT</license>' \"\$n\" && grep -q '<readme>build-compare.md</readme>' \"\$n\" && test -s '$work/tool-package/build-compare.md' && grep -q 'url=\"https://github.com/clonecopy/clonecopy\"' \"\$n\""
bundled=("$work/tool-package"/tools/*/any/sdk/CloneCopy.*.nupkg)
check "the tool bundles CloneCopy $version and no other" test "${#bundled[@]}" -eq 1 -a "${bundled[0]##*/}" == "CloneCopy.$version.nupkg"
# An embedded portable PDB starts with the signature MPDB: every assembly has its symbols inside.
missing=$(find "$work/sdk/tasks" "$work/tool-package/tools" -name '*.dll' \( -name 'CloneCopy.dll' -o -name 'clonecopy-compare.dll' \) -print0 | xargs -0 grep -L MPDB)
count=$(find "$work/sdk/tasks" -name CloneCopy.dll | wc -l)
check "7 task assemblies in CloneCopy (netstandard2.0, net8.0, net10.0, and net10.0 precompiled for .NET 10 and for .NET 11 on linux-x64 and win-x64), each with its PDB embedded${missing:+ (none in: $missing)}" test "$count" -eq 7 -a -z "$missing"
# A build-machine path in any text of either package: this checkout, the home folder, the agent's work folder.
leaks=$(grep -rlF -e "$repo" -e "$HOME/" ${AGENT_BUILDDIRECTORY:+-e "$AGENT_BUILDDIRECTORY"} "$work/sdk" "$work/tool-package" 2>/dev/null)
check "no build-machine path in either package${leaks:+ (in: $leaks)}" test -z "$leaks"
# The compressed parts (embedded PDBs: their source paths, Source Link, informational versions) are read by
# PackageContentsTests, run here on this folder's package instead of one the tests pack.
if test_assembly=$(built_assembly tests/CloneCopy.Tests) && [[ -f "$test_assembly" ]]; then
  log="$work/package-tests.log"
  CLONECOPY_TEST_PACKAGES="$folder" dotnet "$test_assembly" -noLogo -noColor -class CloneCopy.Tests.Integration.PackageContentsTests > "$log" 2>&1
  code=$?
  if ((code == 0)) && grep -qE 'Total: [1-9][0-9]*, Errors: 0, Failed: 0, Skipped: 0' "$log"; then
    ok "PackageContentsTests on this package: symbols with /_/ paths, Source Link to github.com/clonecopy/clonecopy, informational version $version, no machine path"
  else
    cat "$log"; bad "PackageContentsTests on this package"
  fi
else
  bad "PackageContentsTests: build tests/CloneCopy.Tests first (dotnet build tests/CloneCopy.Tests -c Release)"
fi

echo "== restored from a folder feed into fresh projects, every way the README names"
# new_project DIR: an empty class library with a content file to copy, whose NuGet.config adds the folder feed.
new_project() {
  local dir=$1
  mkdir -p "$dir"
  cat > "$dir/NuGet.config" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <add key="release" value="$folder" />
  </packageSources>
</configuration>
XML
  echo "content" > "$dir/notes.txt"
  printf 'namespace Lib;\npublic static class Class1 { }\n' > "$dir/Class1.cs"
  printf '{ "sdk": { "version": "10.0.100", "rollForward": "latestFeature" } }\n' > "$dir/global.json"
}
# project_file DIR LINE: Lib.csproj, with LINE inside <Project>.
project_file() {
  cat > "$1/Lib.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  $2
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <ItemGroup><None Include="notes.txt" CopyToOutputDirectory="PreserveNewest" /></ItemGroup>
</Project>
XML
}
# built_with_package WAY DIR: builds DIR; passes when the Copy task came from this version's package in the
# check's own package cache and CloneCopy's summary line was said.
built_with_package() {
  local way=$1 dir=$2 log="$2/build.log"
  (cd "$dir" && dotnet build -v:d -nologo -tl:off > "$log" 2>&1) || { tail -20 "$log"; bad "$way: dotnet build failed"; return; }
  local expected_path="$NUGET_PACKAGES/clonecopy/${version,,}/tasks/"
  if grep -qF "Using \"Copy\" task from assembly \"$expected_path" "$log" && grep -qE '^ +CloneCopy: [0-9]+ files? cloned' "$log"; then
    ok "$way: restored $version from the folder feed, its Copy ran and said its line"
  else
    grep -E 'Using "Copy" task|CloneCopy: ' "$log" | head -5
    bad "$way: the build did not run CloneCopy $version from the folder feed"
  fi
}

d="$work/global-json"; new_project "$d"; project_file "$d" ""
printf '{ "sdk": { "version": "10.0.100", "rollForward": "latestFeature" }, "msbuild-sdks": { "CloneCopy": "%s" } }\n' "$version" > "$d/global.json"
printf '<Project>\n  <Sdk Name="CloneCopy" />\n</Project>\n' > "$d/Directory.Build.props"
built_with_package "global.json msbuild-sdks and <Sdk Name=\"CloneCopy\" /> in Directory.Build.props" "$d"

d="$work/sdk-element"; new_project "$d"; project_file "$d" "<Sdk Name=\"CloneCopy\" Version=\"$version\" />"
built_with_package "<Sdk Name=\"CloneCopy\" Version=\"$version\" /> in the project" "$d"

d="$work/package-reference"; new_project "$d"
project_file "$d" "<ItemGroup><PackageReference Include=\"CloneCopy\" Version=\"$version\" PrivateAssets=\"all\" /></ItemGroup>"
built_with_package "PackageReference" "$d"

d="$work/central"; new_project "$d"; project_file "$d" ""
cat > "$d/Directory.Packages.props" <<XML
<Project>
  <PropertyGroup><ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally></PropertyGroup>
  <ItemGroup><GlobalPackageReference Include="CloneCopy" Version="$version" /></ItemGroup>
</Project>
XML
built_with_package "Central Package Management's GlobalPackageReference" "$d"

echo "== clonecopy-compare, installed and run as the README says"
if dotnet tool install CloneCopy.BuildCompare --version "$version" --tool-path "$work/tool" --add-source "$folder" > "$work/install.log" 2>&1; then
  said=$("$work/tool/clonecopy-compare" --version 2>&1)
  check "dotnet tool install: clonecopy-compare --version says $version (said: $said)" test "$said" == "$version"
else
  cat "$work/install.log"; bad "dotnet tool install CloneCopy.BuildCompare from the folder feed"
fi
said=$(cd "$work" && dotnet dnx CloneCopy.BuildCompare --version "$version" --add-source "$folder" --yes -- --version 2>&1 | tail -1)
check "dotnet dnx CloneCopy.BuildCompare -- --version says $version (said: $said)" test "$said" == "$version"

finish
