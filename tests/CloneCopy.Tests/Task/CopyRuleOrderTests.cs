using System;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// Rules whose order or reference point a small mistake would change, each checked against what
/// MSBuild's Copy does: the same-path rule comes before FailIfNotIncremental; MSBuild's parallel loop compares
/// a source with the previous one for its destination; its single-threaded loop (MSBUILDCOPYTASKPARALLELISM=1,
/// which CloneCopy reads per call and MSBuild's Copy once per process) skips a pair only after a successful
/// copy of that same source to that destination.
/// </summary>
public sealed class CopyRuleOrderTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-rule-order").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_file_copied_onto_itself_passes_FailIfNotIncremental_as_with_MSBuilds_Copy()
    {
        foreach (ITask task in new ITask[] { new Microsoft.Build.Tasks.Copy(), new CloneCopy.Copy() })
        {
            string source = TestFiles.Write(Path.Combine(_directory, task.GetType().FullName!, "a.txt"), 300, seed: 1);
            var engine = new TestBuildEngine();
            task.BuildEngine = engine;
            Set(task, "SourceFiles", new ITaskItem[] { new TaskItem(source) });
            Set(task, "DestinationFiles", new ITaskItem[] { new TaskItem(source) });
            Set(task, "FailIfNotIncremental", true);

            Assert.True(task.Execute(), $"{task.GetType().FullName}: {engine.Describe()}");
            Assert.Empty(engine.Errors);
            Assert.Equal(TestFiles.Content(300, 1), File.ReadAllBytes(source));
        }
    }

    [Fact]
    public void Sources_A_B_A_to_one_destination_in_the_parallel_loop_copy_A_again_and_A_wins()
    {
        foreach (ITask task in new ITask[] { new Microsoft.Build.Tasks.Copy(), new CloneCopy.Copy() })
        {
            string folder = Path.Combine(_directory, task.GetType().FullName!);
            string a = TestFiles.Write(Path.Combine(folder, "a.txt"), 300, seed: 1);
            string b = TestFiles.Write(Path.Combine(folder, "b.txt"), 400, seed: 2);
            string destination = Path.Combine(folder, "o.txt");

            var (succeeded, engine) = Run(task, [a, b, a], [destination, destination, destination], parallelism: null);

            Assert.True(succeeded, engine.Describe());
            Assert.Equal(File.ReadAllBytes(a), File.ReadAllBytes(destination));
            Assert.Equal(3, CopyingMessages(engine));
        }
    }

    [Fact]
    public void Single_threaded_a_pair_is_skipped_only_after_its_source_was_copied_to_that_destination()
    {
        string a = TestFiles.Write(Path.Combine(_directory, "a.txt"), 300, seed: 1);
        string b = TestFiles.Write(Path.Combine(_directory, "b.txt"), 400, seed: 2);
        string o = Path.Combine(_directory, "o.txt");
        string p = Path.Combine(_directory, "p.txt");

        // a to o, b to p, a to o again: the last pair is the copy already made, not copied again.
        var (succeeded, engine) = Run(new CloneCopy.Copy(), [a, b, a], [o, p, o], parallelism: "1");

        Assert.True(succeeded, engine.Describe());
        Assert.Equal(2, CopyingMessages(engine));
        Assert.Equal(File.ReadAllBytes(a), File.ReadAllBytes(o));
    }

    [Theory]
    [InlineData("1", 2)]   // single-threaded loop: a failed copy is not remembered, the second try fails too
    [InlineData(null, 1)]  // parallel loop: the second pair has the previous pair's source, so it is not tried
    public void A_missing_source_listed_twice_is_reported_per_loop(string? parallelism, int expectedErrors)
    {
        string missing = Path.Combine(_directory, "nope.txt");
        string o = Path.Combine(_directory, "o.txt");

        var (succeeded, engine) = Run(new CloneCopy.Copy(), [missing, missing], [o, o], parallelism);

        Assert.False(succeeded);
        Assert.Equal(expectedErrors, engine.Errors.Count(e => e.Code == "MSB3030"));
        Assert.Equal(expectedErrors, engine.Errors.Count);
    }

    private static (bool Succeeded, TestBuildEngine Engine) Run(ITask task, string[] sources, string[] destinations, string? parallelism)
    {
        var engine = new TestBuildEngine();
        task.BuildEngine = engine;
        Set(task, "SourceFiles", sources.Select(s => (ITaskItem)new TaskItem(s)).ToArray());
        Set(task, "DestinationFiles", destinations.Select(s => (ITaskItem)new TaskItem(s)).ToArray());
        Set(task, "RetryDelayMilliseconds", 0);
        string? before = Environment.GetEnvironmentVariable("MSBUILDCOPYTASKPARALLELISM");
        Environment.SetEnvironmentVariable("MSBUILDCOPYTASKPARALLELISM", parallelism);
        try
        {
            return (task.Execute(), engine);
        }
        finally
        {
            Environment.SetEnvironmentVariable("MSBUILDCOPYTASKPARALLELISM", before);
        }
    }

    private static int CopyingMessages(TestBuildEngine engine) =>
        engine.Messages.Count(m => m.Message!.StartsWith("Copying file from", StringComparison.Ordinal));

    private static void Set(ITask task, string property, object value) => task.GetType().GetProperty(property)!.SetValue(task, value);
}
