using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// CLC004 tells a user that the outputs clone but the NuGet package cache is on another volume, and to move the cache.
/// Where the outputs cannot clone (ext4; outputs on another filesystem than what they are copied from), moving the cache
/// would clone nothing: the advice would be wrong, so it must not be said, whatever else crosses volumes. Each case is a
/// project build's Copy of its own output and of a package assembly from the cache, then its summary, as
/// <see cref="ProjectBuildEngine"/> lets them run without a real build.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class PackageCacheAdviceTests
{
    private readonly LoopFilesystems _filesystems;

    public PackageCacheAdviceTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    /// <param name="project">Where the project's own files are built (obj/).</param>
    /// <param name="output">Where they are copied to (bin/).</param>
    /// <param name="cache">Where the package cache is.</param>
    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4, FilesystemKind.Ext4, FilesystemKind.SecondXfs, false)] // ext4 cannot clone; the cache on another mount
    [InlineData(FilesystemKind.Ext4, FilesystemKind.Ext4, FilesystemKind.Ext4, false)] // ext4, the cache on it too
    [InlineData(FilesystemKind.Xfs, FilesystemKind.Ext4, FilesystemKind.SecondXfs, false)] // outputs on ext4, beside a project on XFS
    [InlineData(FilesystemKind.Xfs, FilesystemKind.SecondXfs, FilesystemKind.Btrfs, false)] // outputs on another reflink volume than everything copied there
    [InlineData(FilesystemKind.Xfs, FilesystemKind.Xfs, FilesystemKind.SecondXfs, true)] // the outputs clone: the advice is right, and said
    public void The_package_cache_advice_is_said_only_where_the_outputs_clone(FilesystemKind project, FilesystemKind output, FilesystemKind cache, bool advised)
    {
        string packageRoot = _filesystems.NewDirectory(cache, "packages");
        string fromCache = TestFiles.Write(Path.Combine(packageRoot, "some.package", "1.0.0", "lib", "net10.0", "Some.Package.dll"), 70_000, seed: 21);
        string own = TestFiles.Write(Path.Combine(_filesystems.NewDirectory(project, "project"), "obj", "App.dll"), 70_000, seed: 22);
        string bin = output == project ? Path.Combine(Path.GetDirectoryName(Path.GetDirectoryName(own)!)!, "bin") : _filesystems.NewDirectory(output, "bin");
        var engine = new ProjectBuildEngine();

        Assert.True(Copy(engine, [own, fromCache], bin), engine.Recorded.Describe());
        Assert.True(Summarise(engine, packageRoot), engine.Recorded.Describe());

        string log = engine.Recorded.Describe();
        var advice = engine.Recorded.Messages.Where(m => m is BuildMessageEventArgs { Code: "CLC004" }).ToList();
        Assert.True(advice.Count == (advised ? 1 : 0), $"CLC004 said {advice.Count} times, where the outputs {(advised ? "clone" : "cannot clone")} (project on {project}, outputs on {output}, package cache on {cache}):\n{log}");
        Assert.Contains(advised ? "CloneCopy: 1 file cloned" : "CloneCopy: 0 files cloned", log);
        Assert.Equal(File.ReadAllBytes(fromCache), File.ReadAllBytes(Path.Combine(bin, "Some.Package.dll")));
    }

    private static bool Copy(ProjectBuildEngine engine, string[] sources, string destinationFolder) =>
        new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = sources.Select(s => (ITaskItem)new TaskItem(s)).ToArray(),
            DestinationFolder = new TaskItem(destinationFolder),
        }.Execute();

    private static bool Summarise(ProjectBuildEngine engine, string nugetPackageRoot) =>
        new CloneCopySummary { BuildEngine = engine, ProjectName = "App", NuGetPackageRoot = nugetPackageRoot }.Execute();
}
