using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>Copy tasks of several projects, built on several MSBuild nodes, writing the same destinations.</summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class ParallelBuildTests
{
    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;

    public ParallelBuildTests(LoopFilesystems filesystems, PackedSdk sdk)
    {
        _filesystems = filesystems;
        _sdk = sdk;
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Ext4)]
    public void Projects_built_with_m_that_copy_to_one_folder_leave_every_file_complete(FilesystemKind kind)
    {
        var repository = new TestRepository(_filesystems.NewDirectory(kind, "parallel"), _sdk)
            .Write("Directory.Build.props", "<Project><Sdk Name=\"CloneCopy\" /></Project>")
            .WriteGlobalJson(msbuildSdks: true);
        for (int i = 0; i < 12; i++)
        {
            repository.Content($"shared/file{i}.bin", 50_000 + i * 400_000, seed: i);
        }

        // Each project copies the whole shared set into one folder after it builds, at the same time as the others.
        const string copyEverything = """
            <Target Name="PublishShared" AfterTargets="Build">
              <ItemGroup><Shared Include="$(MSBuildThisFileDirectory)../shared/*.bin" /></ItemGroup>
              <Copy SourceFiles="@(Shared)" DestinationFolder="$(MSBuildThisFileDirectory)../shared-out" RetryDelayMilliseconds="10" />
            </Target>
            """;
        string[] projects = ["One", "Two", "Three", "Four"];
        foreach (string project in projects)
        {
            repository.Write($"{project}/{project}.csproj", $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
                  {copyEverything}
                </Project>
                """);
        }

        repository.Write("all.slnx", "<Solution>" + string.Concat(projects.Select(p => $"<Project Path=\"{p}/{p}.csproj\" />")) + "</Solution>");

        for (int round = 0; round < 2; round++)
        {
            var (code, log) = Dotnet.Run("build all.slnx -v:n -nologo -m:4", repository.Root, repository.NuGetPackages);

            Assert.True(code == 0, log);
            foreach (string source in Directory.GetFiles(Path.Combine(repository.Root, "shared")))
            {
                Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(Path.Combine(repository.Root, "shared-out", Path.GetFileName(source))));
            }
        }
    }
}
