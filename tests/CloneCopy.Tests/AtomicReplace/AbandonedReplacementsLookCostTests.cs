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
/// as a reused node or the MSBuild Server is) looks again. docs/performance.md gives the counts.
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

    private static Dictionary<string, int> OnTheFolder(IReadOnlyDictionary<string, int> calls) =>
        calls.Where(c => c.Key is not ("getcwd" or "geteuid")).ToDictionary(c => c.Key, c => c.Value);

    private static void Copy(ProjectBuildEngine build, string source, string folder)
    {
        var task = new CloneCopy.Copy { BuildEngine = build, SourceFiles = [new TaskItem(source)], DestinationFolder = new TaskItem(folder), SkipUnchangedFiles = true };
        Assert.True(task.Execute());
    }
}
