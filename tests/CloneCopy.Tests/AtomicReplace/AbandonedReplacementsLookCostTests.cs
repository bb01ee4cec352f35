using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>
/// What the look for killed atomic replaces costs a build where nothing was killed, counted rather than timed: the
/// system calls that touch the per-user folder of records (<see cref="ReplacementJournal.Folder"/>). The first Copy of a
/// build makes a few (one listing); its later Copy calls none; the first Copy of the next build (the same process,
/// as a reused node or the MSBuild Server is) looks again. docs/performance.md gives the counts. The clean step's walk
/// of an output folder, counted the same way, is taken once per build however many projects share that folder.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class AbandonedReplacementsLookCostTests
{
    private const int LaterCalls = 20;

    private readonly LoopFilesystems _filesystems;
    private readonly ITestOutputHelper _output;

    public AbandonedReplacementsLookCostTests(LoopFilesystems filesystems, ITestOutputHelper output)
    {
        _filesystems = filesystems;
        _output = output;
    }

    [FilesystemFact]
    public void A_build_looks_once_with_a_few_calls_and_its_later_Copy_calls_make_none()
    {
        Assert.True(SystemCallTrace.Available || !LoopFilesystems.IsCi, "strace is needed (scripts/setup.sh installs it)");
        Assert.SkipUnless(SystemCallTrace.Available, "strace is not installed");
        string records = ReplacementJournal.Folder ?? throw new InvalidOperationException("this user has no folder for records");
        Directory.CreateDirectory(records); // as after any build that replaced a file: the look then lists it

        string root = _filesystems.NewDirectory(FilesystemKind.Xfs, "look-cost");
        string source = TestFiles.Write(Path.Combine(root, "src", "Library.dll"), 20_000, seed: 1);
        string output = Path.Combine(root, "out");
        var build = new ProjectBuildEngine();
        Copy(build, source, output); // the destination made, so what is counted below is an incremental build's Copy

        var nextBuild = new ProjectBuildEngine();
        IReadOnlyDictionary<string, int> first = SystemCallTrace.Count(records, () => Copy(nextBuild, source, output));
        IReadOnlyDictionary<string, int> later = SystemCallTrace.Count(records, () =>
        {
            for (int i = 0; i < LaterCalls; i++)
            {
                Copy(nextBuild, source, output);
            }
        });
        IReadOnlyDictionary<string, int> afterThat = SystemCallTrace.Count(records, () => Copy(new ProjectBuildEngine(), source, output));

        // SystemCallTrace also counts the calls that name no path (getcwd, geteuid): the Copy's own, not the look's.
        first = OnTheFolder(first);
        later = OnTheFolder(later);
        afterThat = OnTheFolder(afterThat);
        string Describe(IReadOnlyDictionary<string, int> calls) => string.Join(", ", calls.OrderBy(c => c.Key, StringComparer.Ordinal).Select(c => $"{c.Key} {c.Value}"));
        _output.WriteLine($"the first Copy of a build: {Describe(first)}; its next {LaterCalls} Copy calls: {Describe(later)}; the next build's first: {Describe(afterThat)}");
        Assert.True(first.Values.Sum() > 0, "the first Copy of the build did not look");
        Assert.True(later.Values.Sum() == 0, $"later Copy calls of the same build looked again: {Describe(later)}");
        Assert.True(afterThat.Values.Sum() > 0, "the next build's first Copy did not look");
    }

    /// <summary>
    /// The clean step of a solution whose projects share one output folder (dotnet clean, Rebuild): each project's
    /// clean names that folder, and it is walked by the first one of the build only (each project's own intermediate
    /// folder still by its own); the next build's clean walks it again.
    /// </summary>
    [FilesystemFact]
    public void A_shared_output_folder_is_walked_by_the_first_project_s_clean_of_a_build_only()
    {
        Assert.True(SystemCallTrace.Available || !LoopFilesystems.IsCi, "strace is needed (scripts/setup.sh installs it)");
        Assert.SkipUnless(SystemCallTrace.Available, "strace is not installed");
        string root = _filesystems.NewDirectory(FilesystemKind.Ext4, "clean-shared-output");
        string output = Directory.CreateDirectory(Path.Combine(root, "bin", "Release")).FullName;
        Directory.CreateDirectory(Path.Combine(output, "runtimes", "linux-x64"));
        using var dead = System.Diagnostics.Process.Start("true")!;
        dead.WaitForExit();
        string leftover = TestFiles.Write(Path.Combine(output, "runtimes", "linux-x64", $".clonecopy-{dead.Id}-1.tmp"), 100);
        string Obj(string project) => Directory.CreateDirectory(Path.Combine(root, project, "obj")).FullName + Path.DirectorySeparatorChar;
        string outDir = output + Path.DirectorySeparatorChar; // as Sdk.targets passes $(OutDir): made full, ending with a separator

        var build = new ProjectBuildEngine();
        IReadOnlyDictionary<string, int> first = OnTheFolder(SystemCallTrace.Count(output, () => Clean(build, outDir, Obj("A"))));
        Assert.False(File.Exists(leftover), "the first project's clean did not remove a dead process's temporary file");
        IReadOnlyDictionary<string, int> second = OnTheFolder(SystemCallTrace.Count(output, () => Clean(build, outDir, Obj("B"))));
        IReadOnlyDictionary<string, int> nextBuild = OnTheFolder(SystemCallTrace.Count(output, () => Clean(new ProjectBuildEngine(), outDir, Obj("A"))));

        string Describe(IReadOnlyDictionary<string, int> calls) => string.Join(", ", calls.OrderBy(c => c.Key, StringComparer.Ordinal).Select(c => $"{c.Key} {c.Value}"));
        _output.WriteLine($"on the shared output folder: the first project's clean: {Describe(first)}; the second's: {Describe(second)}; the next build's: {Describe(nextBuild)}");
        // A walk opens and lists folders (openat, getdents64); the clean's check that a folder it is given exists is one stat.
        static int Listings(IReadOnlyDictionary<string, int> calls) => calls.GetValueOrDefault("openat") + calls.GetValueOrDefault("getdents64");
        Assert.True(Listings(first) > 0, $"the first project's clean did not walk the output folder: {Describe(first)}");
        Assert.True(Listings(second) == 0, $"the second project's clean of the same build walked it again: {Describe(second)}");
        Assert.True(Listings(nextBuild) > 0, $"the next build's clean did not walk the output folder: {Describe(nextBuild)}");
    }

    private static void Clean(ProjectBuildEngine build, params string[] folders) =>
        Assert.True(new CloneCopyClean { BuildEngine = build, Folders = folders }.Execute());

    private static Dictionary<string, int> OnTheFolder(IReadOnlyDictionary<string, int> calls) =>
        calls.Where(c => c.Key is not ("getcwd" or "geteuid")).ToDictionary(c => c.Key, c => c.Value);

    private static void Copy(ProjectBuildEngine build, string source, string folder)
    {
        var task = new CloneCopy.Copy { BuildEngine = build, SourceFiles = [new TaskItem(source)], DestinationFolder = new TaskItem(folder), SkipUnchangedFiles = true };
        Assert.True(task.Execute());
    }
}
