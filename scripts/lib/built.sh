# built_assembly PROJECT : the assembly a Release build of PROJECT writes (its TargetPath), asked of MSBuild so
# that no script spells out bin/Release/<framework>: moving a project or changing its framework or output path
# needs no script edit. Evaluation only (about 2 s); build the project first.
# Sourced by the scripts that run a program or test binary they built.
built_assembly() {
  # Without the carriage return MSBuild ends its line with on Windows (Git Bash keeps it in $(...)).
  dotnet msbuild "$1" -getProperty:TargetPath -p:Configuration=Release -nologo | tr -d '\r'
}
