using System;
using System.Collections;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using Microsoft.Build.Framework;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// Records what a task logs. Thread-safe: both Copy tasks log from their worker threads. The task node's
/// position is not zero, so an event that takes its location from the task node shows it.
/// </summary>
public sealed class TestBuildEngine : IBuildEngine
{
    private readonly ConcurrentQueue<BuildEventArgs> _events = new();

    public IReadOnlyList<BuildErrorEventArgs> Errors => _events.OfType<BuildErrorEventArgs>().ToList();

    public IReadOnlyList<BuildWarningEventArgs> Warnings => _events.OfType<BuildWarningEventArgs>().ToList();

    public IReadOnlyList<BuildMessageEventArgs> Messages => _events.OfType<BuildMessageEventArgs>().ToList();

    public IReadOnlyList<BuildEventArgs> Events => _events.ToList();

    public bool ContinueOnError => false;

    public int LineNumberOfTaskNode => 12;

    public int ColumnNumberOfTaskNode => 5;

    public string ProjectFileOfTaskNode => "test.proj";

    /// <summary>
    /// The events to hold against MSBuild's own Copy: all of them except CloneCopy's additions (the
    /// per-file "CloneCopy: cloned ..." detail and its summary line), which MSBuild's Copy has no
    /// counterpart for. Each such addition starts with "CloneCopy:".
    /// </summary>
    public IEnumerable<BuildEventArgs> MSBuildComparableEvents() =>
        _events.Where(e => !(e is BuildMessageEventArgs && (e.Message ?? string.Empty).StartsWith("CloneCopy:", StringComparison.Ordinal)));

    public bool BuildProjectFile(string projectFileName, string[] targetNames, IDictionary globalProperties, IDictionary targetOutputs) =>
        throw new NotSupportedException();

    public void LogCustomEvent(CustomBuildEventArgs e) => _events.Enqueue(e);

    public void LogErrorEvent(BuildErrorEventArgs e) => _events.Enqueue(e);

    public void LogWarningEvent(BuildWarningEventArgs e) => _events.Enqueue(e);

    public void LogMessageEvent(BuildMessageEventArgs e) => _events.Enqueue(e);

    public string Describe() => string.Join(Environment.NewLine, _events.Select(e => e switch
    {
        BuildErrorEventArgs error => $"error {error.Code}: {error.Message}",
        BuildWarningEventArgs warning => $"warning {warning.Code}: {warning.Message}",
        BuildMessageEventArgs message => $"message[{message.Importance}]: {message.Message}",
        _ => e.Message,
    }));
}
