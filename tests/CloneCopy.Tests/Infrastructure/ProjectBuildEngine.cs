using System;
using System.Collections;
using System.Collections.Concurrent;
using System.Collections.Generic;
using Microsoft.Build.Framework;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// A test engine that behaves as MSBuild's does for one project build: it stamps every event with that
/// project build's context and keeps task objects registered for the build. With it, Copy calls add their
/// outcomes to the project's statistics and <see cref="CloneCopySummary"/> reads them (its guard, CLC004),
/// without a real build. Events are recorded by the <see cref="TestBuildEngine"/> in <see cref="Recorded"/>.
/// </summary>
public sealed class ProjectBuildEngine : IBuildEngine4
{
    private readonly BuildEventContext _context;
    private readonly ConcurrentDictionary<object, object> _buildObjects = new();

    public ProjectBuildEngine(int projectContextId = 7) =>
        _context = new BuildEventContext(submissionId: 1, nodeId: 1, evaluationId: 1, projectInstanceId: 1, projectContextId, targetId: 1, taskId: 1);

    public TestBuildEngine Recorded { get; } = new();

    public bool ContinueOnError => false;

    public int LineNumberOfTaskNode => Recorded.LineNumberOfTaskNode;

    public int ColumnNumberOfTaskNode => Recorded.ColumnNumberOfTaskNode;

    public string ProjectFileOfTaskNode => Recorded.ProjectFileOfTaskNode;

    public bool IsRunningMultipleNodes => false;

    public void LogErrorEvent(BuildErrorEventArgs e) => Recorded.LogErrorEvent(Stamped(e));

    public void LogWarningEvent(BuildWarningEventArgs e) => Recorded.LogWarningEvent(Stamped(e));

    public void LogMessageEvent(BuildMessageEventArgs e) => Recorded.LogMessageEvent(Stamped(e));

    public void LogCustomEvent(CustomBuildEventArgs e) => Recorded.LogCustomEvent(Stamped(e));

    public void RegisterTaskObject(object key, object obj, RegisteredTaskObjectLifetime lifetime, bool allowEarlyCollection) =>
        _buildObjects[key] = obj;

    public object? GetRegisteredTaskObject(object key, RegisteredTaskObjectLifetime lifetime) =>
        _buildObjects.TryGetValue(key, out object? value) ? value : null;

    public object? UnregisterTaskObject(object key, RegisteredTaskObjectLifetime lifetime) =>
        _buildObjects.TryRemove(key, out object? value) ? value : null;

    public bool BuildProjectFile(string projectFileName, string[] targetNames, IDictionary globalProperties, IDictionary targetOutputs) =>
        throw new NotSupportedException();

    public bool BuildProjectFile(string projectFileName, string[] targetNames, IDictionary globalProperties, IDictionary targetOutputs, string toolsVersion) =>
        throw new NotSupportedException();

    public bool BuildProjectFilesInParallel(string[] projectFileNames, string[] targetNames, IDictionary[] globalProperties, IDictionary[] targetOutputsPerProject, string[] toolsVersion, bool useResultsCache, bool unloadProjectsOnCompletion) =>
        throw new NotSupportedException();

    public BuildEngineResult BuildProjectFilesInParallel(string[] projectFileNames, string[] targetNames, IDictionary[] globalProperties, IList<string>[] removeGlobalProperties, string[] toolsVersion, bool returnTargetOutputs) =>
        throw new NotSupportedException();

    public void Yield()
    {
    }

    public void Reacquire()
    {
    }

    private T Stamped<T>(T e)
        where T : BuildEventArgs
    {
        e.BuildEventContext = _context;
        return e;
    }
}
