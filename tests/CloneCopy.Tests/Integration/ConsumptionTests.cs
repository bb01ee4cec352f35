using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>Every way users add an SDK, each restored from the packed feed and built by `dotnet build`.</summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class ConsumptionTests
{
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
        var repository = new TestRepository(_filesystems.NewDirectory(FilesystemKind.Xfs, "consume"), _sdk);
        switch (way)
        {
            case "sdk element with version":
                repository.Library("Lib", sdkLine: $"<Sdk Name=\"CloneCopy\" Version=\"{PackedSdk.Version}\" />");
                break;
            case "global.json msbuild-sdks":
                repository.WriteGlobalJson(msbuildSdks: true)
                    .Write("Directory.Build.props", "<Project><Sdk Name=\"CloneCopy\" /></Project>")
                    .Library("Lib");
                break;
            case "package reference":
                repository.Library("Lib", extraItems: $"<PackageReference Include=\"CloneCopy\" Version=\"{PackedSdk.Version}\" PrivateAssets=\"all\" />");
                break;
            case "global package reference":
                repository.Write("Directory.Packages.props", $"""
                        <Project>
                          <PropertyGroup><ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally></PropertyGroup>
                          <ItemGroup><GlobalPackageReference Include="CloneCopy" Version="{PackedSdk.Version}" /></ItemGroup>
                        </Project>
                        """)
                    .Library("Lib");
                break;
        }

        var (code, log) = repository.Build("Lib/Lib.csproj");

        Assert.True(code == 0, log);
        var assemblies = TestRepository.CopyTaskAssemblies(log);
        Assert.NotEmpty(assemblies);
        Assert.All(assemblies, assembly => Assert.EndsWith("/clonecopy/1.0.0/tasks/net10.0/linux-x64/CloneCopy.dll", assembly));
        Assert.Matches(@"CloneCopy: [1-9][0-9]* files? cloned", log);
    }
}
