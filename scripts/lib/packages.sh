# Sourced by the scripts that pack CloneCopy or use what was packed. Versions come from git tags (MinVer,
# Directory.Build.props): every commit packs its own version, so nothing names one; it is read from the package.
#
# package_version FOLDER ID: the version of the one ID package in FOLDER, from its file name (ID.VERSION.nupkg);
# fails, saying why, where there is none or more than one. The glob needs the version's first digit so that
# "CloneCopy" does not also match CloneCopy.BuildCompare.
package_version() {
  local folder=$1 id=$2 files
  files=("$folder/$id".[0-9]*.nupkg)
  if [[ ! -f "${files[0]}" ]]; then echo "no $id package in $folder" >&2; return 1; fi
  if ((${#files[@]} > 1)); then echo "more than one $id package in $folder: ${files[*]##*/}" >&2; return 1; fi
  local name=${files[0]##*/}
  name=${name#"$id".}
  echo "${name%.nupkg}"
}

# pack_clonecopy FOLDER [dotnet pack arguments]: packs src/CloneCopy into FOLDER, after removing the CloneCopy
# packages of other commits from it, so that package_version FOLDER CloneCopy names this one.
pack_clonecopy() {
  local folder=$1; shift
  mkdir -p "$folder" && rm -f "$folder"/CloneCopy.[0-9]*.nupkg
  dotnet pack src/CloneCopy -c Release -o "$folder" -nologo "$@"
}

# copy_sample NAME DEST FEED VERSION: samples/NAME copied to DEST as a user would set it up: its NuGet.config's
# local feed is FEED, and the version placeholder X.Y.Z (global.json, the project's Sdk element) is VERSION.
copy_sample() {
  local name=$1 dest=$2 feed=$3 version=$4
  rm -rf "$dest" && cp -r "samples/$name" "$dest"
  # sed -i with a suffix attached is the one form GNU sed and macOS's BSD sed both read (BSD takes a bare -i's next
  # word as the suffix); the backups are removed after.
  sed -i.copy-sample "s|../../artifacts/packages|$feed|" "$dest/NuGet.config"
  find "$dest" \( -name global.json -o -name '*.csproj' \) -exec sed -i.copy-sample "s|\"X\\.Y\\.Z\"|\"$version\"|g" {} +
  find "$dest" -name '*.copy-sample' -exec rm -f {} +
  if grep -rqs --include=global.json --include='*.csproj' 'X\.Y\.Z' "$dest"; then
    echo "copy_sample: $dest still names the version X.Y.Z" >&2; return 1
  fi
}
