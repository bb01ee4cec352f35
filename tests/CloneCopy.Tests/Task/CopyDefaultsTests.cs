using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// A &lt;Copy&gt; in a user's own target sets only what it needs; every parameter it leaves out takes the task's default.
/// The differential scenarios always pass Retries and RetryDelayMilliseconds (a test cannot wait ten seconds a case),
/// so a default of CloneCopy's that differs from MSBuild's would pass them all. Here every public settable property of
/// CloneCopy's Copy is held against MSBuild's Copy (the one these tests are built against) as both tasks are made, and the
/// retry defaults through a real Execute of each, where they show in MSB3026's words.
/// </summary>
public sealed class CopyDefaultsTests : IDisposable
{
    /// <summary>Parameters CloneCopy's Copy has and MSBuild's has not: none. CloneCopy's switches are project properties (CloneCopySettings), never Copy parameters.</summary>
    private static readonly string[] CloneCopyOnly = [];

    /// <summary>Parameters whose value as made is intended to differ, with where that is documented.</summary>
    private static readonly Dictionary<string, string> DifferentByIntent = new(StringComparer.Ordinal)
    {
        // docs/fidelity.md, "TaskEnvironment.Fallback by default": that member exists only from MSBuild 18.6, and CloneCopy's
        // .NET 10 build also runs under 18.3-18.5; without one it uses the process's directory and environment, as Fallback does.
        ["TaskEnvironment"] = "MSBuild sets it before Execute; unset, CloneCopy's Copy uses the process's directory and environment",
    };

    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-defaults").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void Every_parameter_is_MSBuilds_with_MSBuilds_type_attributes_and_default()
    {
        var msbuilds = Parameters(typeof(Microsoft.Build.Tasks.Copy));
        var ours = Parameters(typeof(CloneCopy.Copy));
        object msbuildCopy = new Microsoft.Build.Tasks.Copy();
        object cloneCopy = new CloneCopy.Copy();

        Assert.Empty(msbuilds.Keys.Except(ours.Keys).Order()); // MSBuild's parameters CloneCopy lacks
        Assert.Empty(ours.Keys.Except(msbuilds.Keys).Except(CloneCopyOnly).Order()); // CloneCopy's that MSBuild lacks
        var differences = new List<string>();
        foreach (var (name, theirs) in msbuilds.OrderBy(p => p.Key, StringComparer.Ordinal))
        {
            PropertyInfo mine = ours[name];
            if (mine.PropertyType != theirs.PropertyType)
            {
                differences.Add($"{name}: type {mine.PropertyType} where MSBuild's is {theirs.PropertyType}");
            }

            if (Attributes(mine) != Attributes(theirs))
            {
                differences.Add($"{name}: [{Attributes(mine)}] where MSBuild's is [{Attributes(theirs)}]");
            }

            if (!DifferentByIntent.ContainsKey(name) && !SameValue(mine.GetValue(cloneCopy), theirs.GetValue(msbuildCopy)))
            {
                differences.Add($"{name}: {Describe(mine.GetValue(cloneCopy))} where MSBuild's is {Describe(theirs.GetValue(msbuildCopy))}");
            }
        }

        Assert.True(differences.Count == 0, "CloneCopy's Copy as made differs from MSBuild's: " + string.Join("; ", differences));
        Assert.True(msbuilds.ContainsKey(nameof(CloneCopy.Copy.RetryDelayMilliseconds)) && msbuilds.ContainsKey(nameof(CloneCopy.Copy.Retries)), "the comparison saw no retry parameters");
    }

    /// <summary>
    /// A Copy that sets neither Retries nor RetryDelayMilliseconds, onto a destination whose folder cannot be made (a file
    /// has its name), as each task runs it: the first MSB3026 says how long it waits, and that there is a retry at all.
    /// The engine cancels each task at its first MSB3026, so neither waits out its ten retries.
    /// </summary>
    [Fact]
    public void A_Copy_that_sets_no_retry_parameters_retries_as_MSBuilds_Copy_does()
    {
        string msbuilds = FirstRetry(new Microsoft.Build.Tasks.Copy(), "msbuild", (task, source, destination) => (task.SourceFiles, task.DestinationFiles) = (source, destination));
        string ours = FirstRetry(new CloneCopy.Copy(), "clonecopy", (task, source, destination) => (task.SourceFiles, task.DestinationFiles) = (source, destination));

        Assert.Contains("Beginning retry 1 in ", msbuilds, StringComparison.Ordinal);
        Assert.Equal(msbuilds, ours);
    }

    /// <summary>The first MSB3026 of <paramref name="task"/>, given only its files, with its own folder's path as &lt;root&gt;.</summary>
    private string FirstRetry<TTask>(TTask task, string name, Action<TTask, ITaskItem[], ITaskItem[]> files)
        where TTask : Microsoft.Build.Utilities.Task, ICancelableTask
    {
        string root = Directory.CreateDirectory(Path.Combine(_directory, name)).FullName;
        string source = TestFiles.Write(Path.Combine(root, "a.txt"), 100);
        TestFiles.Write(Path.Combine(root, "b.txt"), 10);
        var engine = new CancellingAtTheFirstRetry(task);
        task.BuildEngine = engine;
        files(task, [new TaskItem(source)], [new TaskItem(Path.Combine(root, "b.txt", "o.txt"))]);

        Assert.False(task.Execute());
        BuildWarningEventArgs first = Assert.Single(engine.Recorded.Warnings);
        Assert.Equal("MSB3026", first.Code);
        return first.Message!.Replace(root, "<root>", StringComparison.Ordinal);
    }

    /// <summary>Public, settable instance properties: what a project can pass to the task.</summary>
    private static Dictionary<string, PropertyInfo> Parameters(Type task) =>
        task.GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Where(p => p.SetMethod is { IsPublic: true })
            .ToDictionary(p => p.Name, StringComparer.Ordinal);

    /// <summary>[Output] and [Required]: what MSBuild reads from a parameter's declaration.</summary>
    private static string Attributes(PropertyInfo property) =>
        string.Join(",", new[] { typeof(OutputAttribute), typeof(RequiredAttribute) }.Where(a => property.IsDefined(a, inherit: true)).Select(a => a.Name));

    private static bool SameValue(object? mine, object? theirs) =>
        mine is IEnumerable a && theirs is IEnumerable b && mine is not string
            ? a.Cast<object?>().SequenceEqual(b.Cast<object?>())
            : Equals(mine, theirs);

    private static string Describe(object? value) => value switch
    {
        null => "null",
        string s => $"\"{s}\"",
        IEnumerable e => $"[{string.Join(", ", e.Cast<object?>())}]",
        _ => value.ToString() ?? string.Empty,
    };

    /// <summary>Records as <see cref="TestBuildEngine"/> does, and cancels the task at its first MSB3026.</summary>
    private sealed class CancellingAtTheFirstRetry : IBuildEngine
    {
        private readonly ICancelableTask _task;

        public CancellingAtTheFirstRetry(ICancelableTask task) => _task = task;

        public TestBuildEngine Recorded { get; } = new();

        public bool ContinueOnError => Recorded.ContinueOnError;

        public int LineNumberOfTaskNode => Recorded.LineNumberOfTaskNode;

        public int ColumnNumberOfTaskNode => Recorded.ColumnNumberOfTaskNode;

        public string ProjectFileOfTaskNode => Recorded.ProjectFileOfTaskNode;

        public bool BuildProjectFile(string projectFileName, string[] targetNames, IDictionary globalProperties, IDictionary targetOutputs) =>
            throw new NotSupportedException();

        public void LogCustomEvent(CustomBuildEventArgs e) => Recorded.LogCustomEvent(e);

        public void LogErrorEvent(BuildErrorEventArgs e) => Recorded.LogErrorEvent(e);

        public void LogMessageEvent(BuildMessageEventArgs e) => Recorded.LogMessageEvent(e);

        public void LogWarningEvent(BuildWarningEventArgs e)
        {
            Recorded.LogWarningEvent(e);
            if (e.Code == "MSB3026")
            {
                _task.Cancel();
            }
        }
    }
}
