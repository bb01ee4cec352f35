using System;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// Builds real projects with `dotnet build` as a separate process, CloneCopy enabled repository-wide and
/// restored from the packed feed, and checks the files MSBuild's targets copied.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class SdkBuildTests
{
    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;

    public SdkBuildTests(LoopFilesystems filesystems, PackedSdk sdk)
    {
        _filesystems = filesystems;
        _sdk = sdk;
    }

    [FilesystemFact]
    public void On_reflink_XFS_every_file_the_build_copies_is_a_clone_and_a_second_build_copies_nothing()
    {
        TestRepository repository = NewRepositoryWithApp(FilesystemKind.Xfs);

        var (code, log) = repository.Build("App/App.csproj");

        Assert.True(code == 0, log);
        Assert.All(TestRepository.CopyTaskAssemblies(log), assembly => Assert.EndsWith($"/clonecopy/{_sdk.Version.ToLowerInvariant()}/tasks/net10.0/linux-x64/CloneCopy.dll", assembly));
        var copies = TestRepository.CopiedPairs(log);
        string[] expected = ["Newtonsoft.Json.dll", "Lib.dll", "logo.bin", "settings.json", "App.dll"];
        foreach (string name in expected)
        {
            Assert.Contains(copies, c => c.Destination.EndsWith("/bin/Debug/net10.0/" + name, StringComparison.Ordinal)
                                      || c.Destination.EndsWith("/bin/Debug/net10.0/assets/" + name, StringComparison.Ordinal));
        }

        foreach (var (source, destination) in copies.Where(c => new FileInfo(c.Source).Length > 0))
        {
            Assert.True(ExtentMap.SharesAllExtents(source, destination, out string extents), $"{source} -> {destination}: {extents}");
            Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(destination));
        }

        Assert.Contains("files cloned", log);

        var (secondCode, secondLog) = repository.Build("App/App.csproj", "--no-restore");
        Assert.True(secondCode == 0, secondLog);
        Assert.Empty(TestRepository.CopiedPairs(secondLog));
    }

    [FilesystemTheory]
    [InlineData("DisableCloneCopy")]
    [InlineData("DisableCopyOnWrite")]
    public void The_switch_puts_MSBuilds_own_Copy_back(string property)
    {
        TestRepository repository = NewRepositoryWithApp(FilesystemKind.Ext4);

        var (code, log) = repository.Build("App/App.csproj", $"-p:{property}=true");

        Assert.True(code == 0, log);
        Assert.NotEmpty(TestRepository.CopiedPairs(log));
        Assert.All(TestRepository.CopyTaskAssemblies(log), assembly => Assert.StartsWith("Microsoft.Build.Tasks.Core", assembly));
        Assert.DoesNotContain("CloneCopy:", log);
    }

    [FilesystemFact]
    public void The_switch_works_when_set_in_the_project_file_after_the_SDK_is_imported()
    {
        TestRepository repository = NewRepositoryWithApp(FilesystemKind.Ext4);
        string project = Path.Combine(repository.Root, "App", "App.csproj");
        File.WriteAllText(project, File.ReadAllText(project).Replace("<OutputType>Exe</OutputType>", "<OutputType>Exe</OutputType><DisableCloneCopy>true</DisableCloneCopy>", StringComparison.Ordinal));

        var (code, log) = repository.Build("App/App.csproj");

        Assert.True(code == 0, log);
        // Lib still uses CloneCopy; App, which switched it off in its own file, uses MSBuild's Copy.
        var assemblies = TestRepository.CopyTaskAssemblies(log);
        Assert.Contains(assemblies, a => a.StartsWith("Microsoft.Build.Tasks.Core", StringComparison.Ordinal));
        Assert.Contains(assemblies, a => a.EndsWith("/CloneCopy.dll", StringComparison.Ordinal));
        Assert.Contains("[Lib]", log);
        Assert.DoesNotContain("[App]", log); // no CloneCopy summary for the project that switched it off
    }

    [FilesystemFact]
    public void On_ext4_the_outputs_are_byte_identical_to_the_built_in_Copys()
    {
        TestRepository repository = NewRepositoryWithApp(FilesystemKind.Ext4);
        string output = Path.Combine(repository.Root, "App", "bin");

        var (code, log) = repository.Build("App/App.csproj", "-p:Deterministic=true");
        Assert.True(code == 0, log);
        Assert.Contains("the filesystem cannot clone", log);
        string withCloneCopy = Snapshot(output);
        foreach (var (source, destination) in TestRepository.CopiedPairs(log))
        {
            Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(destination));
        }

        Directory.Delete(output, recursive: true);
        Directory.Delete(Path.Combine(repository.Root, "App", "obj", "Debug"), recursive: true);
        Directory.Delete(Path.Combine(repository.Root, "Lib", "bin"), recursive: true);
        Directory.Delete(Path.Combine(repository.Root, "Lib", "obj", "Debug"), recursive: true);
        var (builtInCode, builtInLog) = repository.Build("App/App.csproj", "-p:Deterministic=true -p:DisableCloneCopy=true --no-restore");
        Assert.True(builtInCode == 0, builtInLog);

        Assert.Equal(Snapshot(output), withCloneCopy);
    }

    private TestRepository NewRepositoryWithApp(FilesystemKind kind) => TestRepository.AppWithLibrary(_filesystems.NewDirectory(kind, "repo"), _sdk);

    /// <summary>Relative path, content hash and mode of every file under a folder.</summary>
    private static string Snapshot(string folder) => string.Join(Environment.NewLine,
        Directory.GetFiles(folder, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal).Select(f =>
            $"{Path.GetRelativePath(folder, f)} {FileMetadata.Read(f).ContentHash} {File.GetUnixFileMode(f)}"));
}
