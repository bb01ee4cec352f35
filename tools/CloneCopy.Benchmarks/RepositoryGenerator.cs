using System;
using System.IO;
using System.Linq;
using System.Text;

namespace CloneCopy.Benchmarks;

/// <summary>
/// Writes a repository of N class libraries in one deep reference chain (Proj1 references Proj0, Proj2
/// references Proj1, ...), all with the same package references copied locally and a content file: the
/// shape that makes MSBuild copy the same assemblies over and over (project k copies k upstream
/// assemblies and every package assembly). CloneCopy is enabled repository-wide through
/// Directory.Build.props; DisableCloneCopy=true switches it off for the comparison. Without CloneCopy
/// (<c>useCloneCopy: false</c>) it is a repository that has never heard of it, the case where clonecopy-compare
/// injects it.
/// </summary>
public static class RepositoryGenerator
{
    /// <summary>
    /// The version of the one CloneCopy package in <paramref name="feed"/>: every commit packs its own (versions come
    /// from git tags), so the generated global.json pins whatever was packed.
    /// </summary>
    public static string PackedVersion(string feed)
    {
        // A digit after "CloneCopy.": the tool's package, CloneCopy.BuildCompare.*, may share the folder.
        var packages = Directory.Exists(feed)
            ? Directory.GetFiles(feed, "CloneCopy.*.nupkg").Where(p => char.IsAsciiDigit(Path.GetFileName(p)["CloneCopy.".Length])).ToList()
            : [];
        if (packages.Count != 1)
        {
            throw new InvalidOperationException($"--feed {feed}: expected one CloneCopy package there, found {packages.Count}.");
        }

        string name = Path.GetFileNameWithoutExtension(packages[0]);
        return name["CloneCopy.".Length..];
    }

    public static void Generate(string root, int projects, string feed = "", bool useCloneCopy = true)
    {
        Directory.CreateDirectory(root);
        string msbuildSdks = useCloneCopy ? $",\n  \"msbuild-sdks\": {{ \"CloneCopy\": \"{PackedVersion(feed)}\" }}" : string.Empty;
        Write(root, "global.json", "{\n  \"sdk\": { \"version\": \"10.0.100\", \"rollForward\": \"latestFeature\" }" + msbuildSdks + "\n}\n");
        string sdkLine = useCloneCopy ? "<Sdk Name=\"CloneCopy\" />" : string.Empty;
        Write(root, "Directory.Build.props", $$"""
            <Project>
              {{sdkLine}}
              <PropertyGroup>
                <TargetFramework>net10.0</TargetFramework>
                <CopyLocalLockFileAssemblies>true</CopyLocalLockFileAssemblies>
                <GenerateDocumentationFile>true</GenerateDocumentationFile>
                <NoWarn>$(NoWarn);CS1591;NU1603;NU1605</NoWarn>
              </PropertyGroup>
            </Project>
            """);
        Write(root, "Directory.Build.targets", "<Project />");
        Write(root, "Directory.Packages.props", """
            <Project>
              <PropertyGroup><ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally></PropertyGroup>
              <ItemGroup>
                <PackageVersion Include="Newtonsoft.Json" Version="13.0.1" />
                <PackageVersion Include="Microsoft.Build.Utilities.Core" Version="18.9.6" />
              </ItemGroup>
            </Project>
            """);
        var solution = new StringBuilder("<Solution>\n");
        var random = new Random(50);
        for (int k = 0; k < projects; k++)
        {
            string name = $"Proj{k:000}";
            string reference = k == 0 ? string.Empty : $"<ProjectReference Include=\"../Proj{k - 1:000}/Proj{k - 1:000}.csproj\" />";
            Write(root, $"{name}/{name}.csproj", $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <ItemGroup>
                    <PackageReference Include="Newtonsoft.Json" />
                    <PackageReference Include="Microsoft.Build.Utilities.Core" />
                    {reference}
                    <None Include="data/{name}.bin" CopyToOutputDirectory="PreserveNewest" />
                  </ItemGroup>
                </Project>
                """);
            string previous = k == 0 ? "0" : $"Proj{k - 1:000}.Api.Value";
            Write(root, $"{name}/Api.cs", $"namespace {name};\n\n/// <summary>Generated.</summary>\npublic static class Api\n{{\n    /// <summary>Generated.</summary>\n    public static int Value => {previous} + {k};\n}}\n");
            byte[] data = new byte[random.Next(50_000, 300_000)];
            random.NextBytes(data);
            Directory.CreateDirectory(Path.Combine(root, name, "data"));
            File.WriteAllBytes(Path.Combine(root, name, "data", $"{name}.bin"), data);
            solution.Append(System.Globalization.CultureInfo.InvariantCulture, $"  <Project Path=\"{name}/{name}.csproj\" />\n");
        }

        Write(root, "Generated.slnx", solution.Append("</Solution>\n").ToString());
        Write(root, "NuGet.config", $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="clonecopy" value="{(feed.Length > 0 ? feed : "FEED")}" />
                <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
              </packageSources>
            </configuration>
            """);
        Console.WriteLine($"generated {projects} projects in {root}");
    }

    private static void Write(string root, string relative, string content)
    {
        string path = Path.Combine(root, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, content.Replace("\r\n", "\n", StringComparison.Ordinal) + (content.EndsWith('\n') ? string.Empty : "\n"));
    }
}
