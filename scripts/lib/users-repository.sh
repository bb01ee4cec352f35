# Sourced by scripts/check-doc-commands.sh. users_repository DIR: a small repository of a user's own, committed to
# git, as the README's commands meet one: Your.sln with src/App (an executable referencing Newtonsoft.Json and
# src/Lib), and its own NuGet set-up, the kind that makes adding a feed hard: a NuGet.config that clears the
# sources and maps every package to nuget.org, a Directory.Build.props, a global.json pinning the SDK (with a
# comment, which the .NET SDK reads), and the usual .gitignore (which ignores *.nupkg).
users_repository() {
  local dir=$1
  mkdir -p "$dir/src/App" "$dir/src/Lib" || return 1
  (
    set -e
    cd "$dir"
    cat > NuGet.config <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
  </packageSources>
  <packageSourceMapping>
    <packageSource key="nuget.org">
      <package pattern="*" />
    </packageSource>
  </packageSourceMapping>
</configuration>
XML
    cat > Directory.Build.props <<'XML'
<Project>
  <PropertyGroup>
    <Nullable>enable</Nullable>
  </PropertyGroup>
</Project>
XML
    cat > global.json <<'JSON'
{
  // the SDK this repository builds with
  "sdk": {
    "version": "10.0.100",
    "rollForward": "latestFeature"
  }
}
JSON
    printf 'bin/\nobj/\n*.nupkg\n' > .gitignore
    cat > src/Lib/Lib.csproj <<'XML'
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
  </PropertyGroup>
</Project>
XML
    printf 'namespace Lib;\n\npublic static class Greeting\n{\n    public static string Text => "hello";\n}\n' > src/Lib/Greeting.cs
    cat > src/App/App.csproj <<'XML'
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net10.0</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <ProjectReference Include="../Lib/Lib.csproj" />
    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
  </ItemGroup>
</Project>
XML
    printf 'System.Console.WriteLine(Newtonsoft.Json.JsonConvert.SerializeObject(Lib.Greeting.Text));\n' > src/App/Program.cs
    dotnet new sln -n Your --format sln
    dotnet sln Your.sln add src/Lib/Lib.csproj src/App/App.csproj
    git init -q
    git add -A
    git -c user.name=user -c user.email=user@example.com commit -qm "the user's repository"
  )
}
