using System;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// SkipUnchangedFiles compares the last-write times to the tick, as MSBuild's Copy does. A generator that runs
/// twice in one build, or a fast incremental step, rewrites a source with the same size within the same second:
/// an up-to-date test in whole seconds would skip it, and the build would ship the old bytes. Real files
/// with explicit times on the run's filesystems (both keep nanoseconds), each task on fresh folders.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class SubSecondUpToDateTests
{
    /// <summary>The destination's time: a build a moment ago.</summary>
    private static readonly DateTime Built = new(2026, 5, 6, 7, 8, 9, 100, DateTimeKind.Utc);

    private readonly LoopFilesystems _filesystems;

    public SubSecondUpToDateTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Ext4)]
    public void A_source_rewritten_with_the_same_size_in_the_same_second_is_copied_again(FilesystemKind kind)
    {
        // 0.6 s later, the same whole second: only the ticks tell the two apart.
        var (copied, destination, log) = Run(kind, Built.AddMilliseconds(600));

        Assert.True(copied, log);
        Assert.Equal(TestFiles.Content(5000, seed: 2), File.ReadAllBytes(destination));
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Ext4)]
    public void A_source_with_the_same_size_and_the_same_time_to_the_tick_is_skipped(FilesystemKind kind)
    {
        // The counterpart: the times above really are compared, and a same-tick destination is left alone.
        var (copied, destination, log) = Run(kind, Built);

        Assert.False(copied, log);
        Assert.Equal(TestFiles.Content(5000, seed: 1), File.ReadAllBytes(destination));
    }

    /// <summary>
    /// MSBuild's Copy and CloneCopy's, each on a destination built at <see cref="Built"/> from the first content and
    /// a source of the same size rewritten at <paramref name="sourceTime"/>; both must decide alike. True when
    /// CloneCopy copied (the destination holds the source's new bytes: the two contents differ, the sizes do not).
    /// </summary>
    private (bool Copied, string Destination, string Log) Run(FilesystemKind kind, DateTime sourceTime)
    {
        var results = new[] { (ITask)new Microsoft.Build.Tasks.Copy(), new CloneCopy.Copy() }.Select(task =>
        {
            string folder = _filesystems.NewDirectory(kind, "subsecond");
            string destination = TestFiles.Write(Path.Combine(folder, "bin", "gen.cs"), 5000, seed: 1, lastWrite: Built);
            string source = TestFiles.Write(Path.Combine(folder, "obj", "gen.cs"), 5000, seed: 2, lastWrite: sourceTime);
            Assert.Equal(sourceTime, File.GetLastWriteTimeUtc(source)); // the filesystem keeps the fraction, or this proves nothing
            Assert.Equal(Built, File.GetLastWriteTimeUtc(destination));

            var engine = new TestBuildEngine();
            task.BuildEngine = engine;
            Set(task, "SourceFiles", new ITaskItem[] { new TaskItem(source) });
            Set(task, "DestinationFiles", new ITaskItem[] { new TaskItem(destination) });
            Set(task, "SkipUnchangedFiles", true);
            bool succeeded = task.Execute();
            string log = $"{task.GetType().FullName}: {engine.Describe()}";
            Assert.True(succeeded, log);
            byte[] content = File.ReadAllBytes(destination);
            return (Copied: content.SequenceEqual(TestFiles.Content(5000, seed: 2)), Destination: destination, Content: content, Log: log);
        }).ToArray();

        var (builtIn, cloneCopy) = (results[0], results[1]);
        string both = builtIn.Log + Environment.NewLine + cloneCopy.Log;
        Assert.True(builtIn.Copied == cloneCopy.Copied, $"MSBuild's Copy copied: {builtIn.Copied}, CloneCopy: {cloneCopy.Copied}{Environment.NewLine}{both}");
        Assert.True(builtIn.Content.SequenceEqual(cloneCopy.Content), both);
        return (cloneCopy.Copied, cloneCopy.Destination, both);
    }

    private static void Set(ITask task, string property, object value) => task.GetType().GetProperty(property)!.SetValue(task, value);
}
