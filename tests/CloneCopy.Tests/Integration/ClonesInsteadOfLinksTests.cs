using System;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// CloneCopyClonesInsteadOfLinks in real builds that ask MSBuild for hard links to copy-local assemblies
/// (CreateHardLinksForCopyLocalIfPossible): on a volume that clones, the outputs are clones (one link, the
/// source's extents), and writing into one leaves the package cache's file alone; without the switch the
/// same write goes through the link into the cache; where nothing clones, MSBuild's links are made as ever.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class ClonesInsteadOfLinksTests
{
    private const string CachedAssembly = "newtonsoft.json/13.0.1/lib/netstandard2.0/Newtonsoft.Json.dll";

    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;

    public ClonesInsteadOfLinksTests(LoopFilesystems filesystems, PackedSdk sdk)
    {
        _filesystems = filesystems;
        _sdk = sdk;
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Btrfs)]
    public void With_the_switch_outputs_are_clones_and_a_write_to_one_leaves_the_package_cache_alone(FilesystemKind kind)
    {
        TestRepository repository = NewRepository(kind);

        var (code, log) = repository.Build("App/App.csproj", "-p:CreateHardLinksForCopyLocalIfPossible=true -p:CloneCopyClonesInsteadOfLinks=true");

        Assert.True(code == 0, log);
        string output = Path.Combine(repository.Root, "App", "bin", "Debug", "net10.0", "Newtonsoft.Json.dll");
        string cached = Path.Combine(repository.NuGetPackages, CachedAssembly);
        Assert.Equal(1, FileSystemOps.LinkCount(output));
        Assert.True(ExtentMap.SharesAllExtents(cached, output, out string extents), extents);
        Assert.Matches(@"CloneCopy: [1-9][0-9]* files? cloned \([0-9.]+ [KMGT]?B not written; [1-9][0-9]* in place of links\).*\[App\]", log);

        byte[] before = File.ReadAllBytes(cached);
        WriteInPlace(output);
        Assert.Equal(before, File.ReadAllBytes(cached));
    }

    [FilesystemFact]
    public void Without_the_switch_the_same_build_hard_links_and_a_write_reaches_the_package_cache()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs);

        var (code, log) = repository.Build("App/App.csproj", "-p:CreateHardLinksForCopyLocalIfPossible=true");

        Assert.True(code == 0, log);
        string output = Path.Combine(repository.Root, "App", "bin", "Debug", "net10.0", "Newtonsoft.Json.dll");
        string cached = Path.Combine(repository.NuGetPackages, CachedAssembly);
        Assert.True(FileSystemOps.LinkCount(output) > 1, "expected MSBuild's hard link");

        byte[] before = File.ReadAllBytes(cached);
        WriteInPlace(output);
        Assert.NotEqual(before, File.ReadAllBytes(cached));
    }

    [FilesystemFact]
    public void Where_nothing_clones_the_switch_keeps_MSBuilds_hard_links()
    {
        TestRepository repository = NewRepository(FilesystemKind.Ext4);

        var (code, log) = repository.Build("App/App.csproj", "-p:CreateHardLinksForCopyLocalIfPossible=true -p:CloneCopyClonesInsteadOfLinks=true");

        Assert.True(code == 0, log);
        string output = Path.Combine(repository.Root, "App", "bin", "Debug", "net10.0", "Newtonsoft.Json.dll");
        Assert.True(FileSystemOps.LinkCount(output) > 1, "expected MSBuild's hard link on ext4");
        Assert.Contains("Creating hard link to copy", log);
        Assert.DoesNotContain("in place of links", log);
    }

    [FilesystemFact]
    public void ErrorIfLinkFails_still_fails_where_neither_a_link_nor_a_clone_can_be_made()
    {
        // Across two filesystems: link() and FICLONE both answer EXDEV.
        string elsewhere = _filesystems.NewDirectory(FilesystemKind.SecondXfs, "links");
        string source = TestFiles.Write(Path.Combine(elsewhere, "input.bin"), 100_000, 3);
        TestRepository repository = NewRepository(FilesystemKind.Xfs)
            .Write("App/Directory.Build.targets", $$"""
                <Project>
                  <Target Name="LinkRequired" AfterTargets="Build">
                    <Copy SourceFiles="{{source}}" DestinationFolder="$(MSBuildProjectDirectory)/linked" UseHardlinksIfPossible="true" ErrorIfLinkFails="true" />
                  </Target>
                </Project>
                """);

        var (code, log) = repository.Build("App/App.csproj", "-p:CloneCopyClonesInsteadOfLinks=true");

        Assert.NotEqual(0, code);
        Assert.Contains("error MSB3893", log);
    }

    [FilesystemFact]
    public void ErrorIfLinkFails_is_satisfied_by_a_clone_in_place_of_the_link()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs)
            .Write("App/Directory.Build.targets", """
                <Project>
                  <Target Name="LinkRequired" AfterTargets="Build">
                    <Copy SourceFiles="$(TargetPath)" DestinationFolder="$(MSBuildProjectDirectory)/linked" UseHardlinksIfPossible="true" ErrorIfLinkFails="true" />
                  </Target>
                </Project>
                """);

        var (code, log) = repository.Build("App/App.csproj", "-p:CloneCopyClonesInsteadOfLinks=true");

        Assert.True(code == 0, log);
        string linked = Path.Combine(repository.Root, "App", "linked", "App.dll");
        Assert.Equal(1, FileSystemOps.LinkCount(linked));
        Assert.True(ExtentMap.Read(linked).All(e => e.IsShared), "expected a clone");
    }

    private TestRepository NewRepository(FilesystemKind kind) => TestRepository.AppWithLibrary(_filesystems.NewDirectory(kind, "links"), _sdk);

    /// <summary>What a signing or weaving step does: change bytes of the output file in place.</summary>
    private static void WriteInPlace(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Write);
        stream.Position = 128;
        stream.Write("patched by a post-build step"u8);
    }
}
