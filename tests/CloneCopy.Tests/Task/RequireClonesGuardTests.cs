using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// The CI guard CloneCopyRequireClones (CLC005) as a project build sees it: Copy calls add to the project's
/// statistics, the summary judges them. Every copy of a non-empty file counts against the guard, whatever
/// the reason: a source on another volume, the package cache on another mount, a filesystem that cannot
/// clone. Run with an engine that stamps a project build, so no real build is needed.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class RequireClonesGuardTests
{
    private readonly LoopFilesystems _filesystems;

    public RequireClonesGuardTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemFact]
    public void Copies_from_a_source_on_another_volume_fail_the_guard()
    {
        string source = TestFiles.Write(Path.Combine(_filesystems.NewDirectory(FilesystemKind.SecondXfs, "elsewhere"), "lib.dll"), 70_000, seed: 5);
        string output = Path.Combine(_filesystems.NewDirectory(FilesystemKind.Xfs, "guard"), "bin");
        var engine = new ProjectBuildEngine();

        Assert.True(Copy(engine, [source], output));
        bool passed = Summarise(engine, "error", nugetPackageRoot: null);

        Assert.False(passed, engine.Recorded.Describe());
        Assert.Contains("error CLC005: CloneCopy: CloneCopyRequireClones is set, but 1 file was copied instead of cloned, for example "
            + Path.Combine(output, "lib.dll") + " (different volumes).", engine.Recorded.Describe());
    }

    [FilesystemFact]
    public void Copies_from_a_package_cache_on_another_mount_fail_the_guard_and_say_CLC004()
    {
        string packageRoot = _filesystems.NewDirectory(FilesystemKind.SecondXfs, "packages");
        string fromCache = TestFiles.Write(Path.Combine(packageRoot, "some.package", "1.0.0", "lib", "net10.0", "Some.Package.dll"), 70_000, seed: 6);
        string project = _filesystems.NewDirectory(FilesystemKind.Xfs, "project");
        string own = TestFiles.Write(Path.Combine(project, "obj", "App.dll"), 70_000, seed: 7);
        string output = Path.Combine(project, "bin");
        var engine = new ProjectBuildEngine();

        Assert.True(Copy(engine, [own, fromCache], output));
        bool passed = Summarise(engine, "error", packageRoot);

        string log = engine.Recorded.Describe();
        Assert.False(passed, log);
        Assert.Contains("CloneCopy: 1 file cloned", log); // the project's own output cloned: only the cache's copy is against the guard
        Assert.Single(engine.Recorded.Messages, m => m is BuildMessageEventArgs { Code: "CLC004" });
        Assert.Contains("error CLC005: CloneCopy: CloneCopyRequireClones is set, but 1 file was copied instead of cloned, for example "
            + Path.Combine(output, "Some.Package.dll") + " (different volumes).", log);
    }

    [FilesystemFact]
    public void Where_everything_clones_the_guard_passes_silently()
    {
        string project = _filesystems.NewDirectory(FilesystemKind.Xfs, "project");
        string own = TestFiles.Write(Path.Combine(project, "obj", "App.dll"), 70_000, seed: 8);
        var engine = new ProjectBuildEngine();

        Assert.True(Copy(engine, [own], Path.Combine(project, "bin")));

        Assert.True(Summarise(engine, "error", nugetPackageRoot: null), engine.Recorded.Describe());
        Assert.Empty(engine.Recorded.Errors);
        Assert.Empty(engine.Recorded.Warnings);
    }

    /// <summary>
    /// An empty file has no blocks to share: XFS copies it (nothing to clone), and almost every build copies one (an
    /// empty resource, a marker file). Counted against the guard, CloneCopyRequireClones=error would fail such a
    /// build on a filesystem where everything that can be cloned was.
    /// </summary>
    [FilesystemFact]
    public void Empty_files_copied_on_XFS_do_not_fail_the_guard()
    {
        string project = _filesystems.NewDirectory(FilesystemKind.Xfs, "project");
        string own = TestFiles.Write(Path.Combine(project, "obj", "App.dll"), 70_000, seed: 10);
        string empty = TestFiles.Write(Path.Combine(project, "obj", "marker.txt"), 0, seed: 11);
        string output = Path.Combine(project, "bin");
        var engine = new ProjectBuildEngine();

        Assert.True(Copy(engine, [own, empty], output));
        bool passed = Summarise(engine, "error", nugetPackageRoot: null);

        string log = engine.Recorded.Describe();
        Assert.True(passed, log);
        Assert.Empty(engine.Recorded.Errors);
        Assert.Empty(engine.Recorded.Warnings);
        // The empty file really was copied (not skipped) and said so, the other cloned: the guard saw both.
        Assert.Equal(0, new FileInfo(Path.Combine(output, "marker.txt")).Length);
        Assert.Contains("1 copied (empty file: 1)", log);
        Assert.True(ExtentMap.SharesAllExtents(own, Path.Combine(output, "App.dll"), out string extents), extents);
    }

    [FilesystemFact]
    public void The_warning_mode_warns_with_CLC005_and_passes_where_files_are_really_copied()
    {
        string project = _filesystems.NewDirectory(FilesystemKind.Ext4, "project");
        string own = TestFiles.Write(Path.Combine(project, "obj", "App.dll"), 70_000, seed: 9);
        string output = Path.Combine(project, "bin");
        var engine = new ProjectBuildEngine();

        Assert.True(Copy(engine, [own], output));
        bool passed = Summarise(engine, "warning", nugetPackageRoot: null);

        Assert.True(passed, engine.Recorded.Describe());
        Assert.Empty(engine.Recorded.Errors);
        var warning = Assert.Single(engine.Recorded.Warnings);
        Assert.Equal("CLC005", warning.Code);
        Assert.Equal("CloneCopy: CloneCopyRequireClones is set, but 1 file was copied instead of cloned, for example "
            + Path.Combine(output, "App.dll") + " (the filesystem cannot clone).", warning.Message);
    }

    private static bool Copy(ProjectBuildEngine engine, string[] sources, string destinationFolder) =>
        new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = sources.Select(s => (ITaskItem)new TaskItem(s)).ToArray(),
            DestinationFolder = new TaskItem(destinationFolder),
        }.Execute();

    private static bool Summarise(ProjectBuildEngine engine, string guard, string? nugetPackageRoot) =>
        new CloneCopySummary { BuildEngine = engine, ProjectName = "App", RequireClones = guard, NuGetPackageRoot = nugetPackageRoot }.Execute();
}
