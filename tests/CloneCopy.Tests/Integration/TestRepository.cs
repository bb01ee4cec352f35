using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// A small repository of real projects written to disk for one test (the role MSBuild.ProjectCreation
/// would play; that package is not available from this project's registry). It restores CloneCopy from the
/// packed feed and keeps its NuGet cache inside itself, on the same volume, so package assemblies can clone.
/// </summary>
public sealed partial class TestRepository
{
    private readonly PackedSdk _sdk;

    public TestRepository(string root, PackedSdk sdk)
    {
        Root = root;
        _sdk = sdk;
        Directory.CreateDirectory(root);
        WriteNuGetConfig(packageSourceMapping: null);
        // Stop MSBuild's upward search for these files at the repository's root.
        Write("Directory.Build.props", "<Project />");
        Write("Directory.Build.targets", "<Project />");
        Write("Directory.Packages.props", "<Project />");
        WriteGlobalJson(msbuildSdks: false);
    }

    public string Root { get; }

    /// <summary>
    /// The repository most build tests use: CloneCopy for the whole repository (Directory.Build.props and
    /// global.json), an App with content files referencing a Lib that references a package.
    /// </summary>
    public static TestRepository AppWithLibrary(string root, PackedSdk sdk) =>
        new TestRepository(root, sdk)
            .Write("Directory.Build.props", "<Project><Sdk Name=\"CloneCopy\" /></Project>")
            .WriteGlobalJson(msbuildSdks: true)
            .Library("Lib", extraItems: "<PackageReference Include=\"Newtonsoft.Json\" Version=\"13.0.1\" />")
            .Content("App/assets/logo.bin", 300_000, 1)
            .Content("App/settings.json", 5_000, 2)
            .Write("App/App.csproj", """
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <OutputType>Exe</OutputType>
                    <TargetFramework>net10.0</TargetFramework>
                  </PropertyGroup>
                  <ItemGroup>
                    <ProjectReference Include="../Lib/Lib.csproj" />
                    <None Include="settings.json" CopyToOutputDirectory="PreserveNewest" />
                    <None Include="assets/**" CopyToOutputDirectory="PreserveNewest" />
                  </ItemGroup>
                </Project>
                """)
            .Write("App/Program.cs", "System.Console.WriteLine(Lib.Class1.Name);");

    public string NuGetPackages => Path.Combine(Root, ".nuget-packages");

    /// <summary>
    /// NuGet.config with the packed feed ("clonecopy") and nuget.org after a &lt;clear /&gt;, as a repository
    /// with its own NuGet set-up has it; <paramref name="packageSourceMapping"/> is the inside of a
    /// &lt;packageSourceMapping&gt; element, or null for none.
    /// </summary>
    public TestRepository WriteNuGetConfig(string? packageSourceMapping)
    {
        string mapping = packageSourceMapping is null ? string.Empty : $"""
              <packageSourceMapping>
                {packageSourceMapping}
              </packageSourceMapping>
            """;
        return Write("NuGet.config", $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="clonecopy" value="{_sdk.Feed}" />
                <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
              </packageSources>
            {mapping}
            </configuration>
            """);
    }

    public TestRepository Write(string relative, string content)
    {
        string path = Path.Combine(Root, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, content);
        return this;
    }

    public TestRepository WriteGlobalJson(bool msbuildSdks)
    {
        string sdks = msbuildSdks ? $",\n  \"msbuild-sdks\": {{ \"CloneCopy\": \"{_sdk.Version}\" }}" : string.Empty;
        return Write("global.json", "{\n  \"sdk\": { \"version\": \"10.0.100\", \"rollForward\": \"latestFeature\" }" + sdks + "\n}\n");
    }

    /// <summary>A class library; <paramref name="sdkLine"/> goes right after the Project element (for example the Sdk element).</summary>
    public TestRepository Library(string name, string? sdkLine = null, string? extraItems = null)
    {
        Write($"{name}/{name}.csproj", $"""
            <Project Sdk="Microsoft.NET.Sdk">
              {sdkLine}
              <PropertyGroup>
                <TargetFramework>net10.0</TargetFramework>
              </PropertyGroup>
              <ItemGroup>
                {extraItems}
              </ItemGroup>
            </Project>
            """);
        Write($"{name}/Class1.cs", $"namespace {name}; public static class Class1 {{ public static string Name => \"{name}\"; }}");
        return this;
    }

    public TestRepository Content(string relative, int length, int seed)
    {
        string path = Path.Combine(Root, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllBytes(path, Infrastructure.TestFiles.Content(length, seed));
        return this;
    }

    public (int ExitCode, string Output) Build(string project, string extraArguments = "") =>
        Dotnet.Run($"build \"{project}\" -v:d -nologo -m:1 {extraArguments}", Root, NuGetPackages);

    /// <summary>The (source, destination) pairs a build log says Copy copied, in order, without repeats.</summary>
    public static IReadOnlyList<(string Source, string Destination)> CopiedPairs(string log) =>
        CopyingLine().Matches(log).Select(m => (m.Groups[1].Value, m.Groups[2].Value)).Distinct().ToList();

    /// <summary>The assembly each "Using "Copy" task from assembly" line names.</summary>
    public static IReadOnlyList<string> CopyTaskAssemblies(string log) =>
        UsingCopyLine().Matches(log).Select(m => m.Groups[1].Value).Distinct().ToList();

    [GeneratedRegex("Copying file from \"([^\"]+)\" to \"([^\"]+)\"\\.")]
    private static partial Regex CopyingLine();

    [GeneratedRegex("Using \"Copy\" task from assembly \"([^\"]+)\"")]
    private static partial Regex UsingCopyLine();
}
