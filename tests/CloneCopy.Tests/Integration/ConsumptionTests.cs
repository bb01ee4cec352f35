using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>Every way users add an SDK, each restored from the packed feed and built by `dotnet build`.</summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class ConsumptionTests
{
    /// <summary>The mapping docs/adding-clonecopy.md and the README give: CloneCopy from its feed, the rest from nuget.org.</summary>
    private const string DocumentedMapping = """
        <packageSource key="clonecopy"><package pattern="CloneCopy" /></packageSource>
            <packageSource key="nuget.org"><package pattern="*" /></packageSource>
        """;

    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;

    public ConsumptionTests(LoopFilesystems filesystems, PackedSdk sdk)
    {
        _filesystems = filesystems;
        _sdk = sdk;
    }

    [FilesystemTheory]
    [InlineData("sdk element with version")]
    [InlineData("global.json msbuild-sdks")]
    [InlineData("package reference")]
    [InlineData("global package reference")]
    public void CloneCopy_replaces_Copy(string way)
    {
        var repository = RepositoryAddingCloneCopy(way);

        var (code, log) = repository.Build("Lib/Lib.csproj");

        AssertClonedWithCloneCopy(code, log);
    }

    [FilesystemTheory]
    [InlineData("sdk element with version")]
    [InlineData("global.json msbuild-sdks")]
    [InlineData("package reference")]
    [InlineData("global package reference")]
    public void With_package_source_mapping_the_documented_entry_is_all_it_takes(string way)
    {
        var repository = RepositoryAddingCloneCopy(way).WriteNuGetConfig(DocumentedMapping);

        var (code, log) = repository.Build("Lib/Lib.csproj");

        AssertClonedWithCloneCopy(code, log);
    }

    [FilesystemTheory]
    [InlineData("sdk element with version", "MSB4236")]
    [InlineData("global.json msbuild-sdks", "MSB4236")]
    [InlineData("package reference", "NU1101")]
    [InlineData("global package reference", "NU1101")]
    public void With_package_source_mapping_that_leaves_CloneCopy_out_the_build_fails_as_the_docs_say(string way, string code)
    {
        // What a user meets before adding the entry: the feed is listed, but the mapping sends every package
        // to nuget.org, where CloneCopy (this build of it) is not. docs/adding-clonecopy.md names these codes.
        var repository = RepositoryAddingCloneCopy(way)
            .WriteNuGetConfig("""<packageSource key="nuget.org"><package pattern="*" /></packageSource>""");

        var (exitCode, log) = repository.Build("Lib/Lib.csproj");

        Assert.True(exitCode != 0, log);
        string errors = string.Join('\n', log.Split('\n').Where(line => line.Contains("error", System.StringComparison.Ordinal)));
        Assert.True(log.Contains($"error {code}", System.StringComparison.Ordinal), errors);
        Assert.True(log.Contains("PackageSourceMapping is enabled, the following source(s) were not considered: clonecopy.", System.StringComparison.Ordinal), errors);
    }

    private TestRepository RepositoryAddingCloneCopy(string way)
    {
        var repository = new TestRepository(_filesystems.NewDirectory(FilesystemKind.Xfs, "consume"), _sdk);
        return way switch
        {
            "sdk element with version" => repository.Library("Lib", sdkLine: $"<Sdk Name=\"CloneCopy\" Version=\"{_sdk.Version}\" />"),
            "global.json msbuild-sdks" => repository.WriteGlobalJson(msbuildSdks: true)
                .Write("Directory.Build.props", "<Project><Sdk Name=\"CloneCopy\" /></Project>")
                .Library("Lib"),
            "package reference" => repository.Library("Lib", extraItems: $"<PackageReference Include=\"CloneCopy\" Version=\"{_sdk.Version}\" PrivateAssets=\"all\" />"),
            "global package reference" => repository.Write("Directory.Packages.props", $"""
                    <Project>
                      <PropertyGroup><ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally></PropertyGroup>
                      <ItemGroup><GlobalPackageReference Include="CloneCopy" Version="{_sdk.Version}" /></ItemGroup>
                    </Project>
                    """)
                .Library("Lib"),
            _ => throw new System.ArgumentOutOfRangeException(nameof(way), way, null),
        };
    }

    private void AssertClonedWithCloneCopy(int code, string log)
    {
        Assert.True(code == 0, log);
        var assemblies = TestRepository.CopyTaskAssemblies(log);
        Assert.NotEmpty(assemblies);
        Assert.All(assemblies, assembly => Assert.EndsWith($"/clonecopy/{_sdk.Version.ToLowerInvariant()}/tasks/net10.0/linux-x64/CloneCopy.dll", assembly));
        Assert.Matches(@"CloneCopy: [1-9][0-9]* files? cloned", log);
    }
}
