using System.Collections.Concurrent;
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// The statistics of every project build on this MSBuild node during this build, keyed by the project
/// build's context id. Lives in a task object registered for the build, so a reused node starts afresh.
/// </summary>
internal static class BuildStatistics
{
    private const string Key = "CloneCopy.ProjectStatistics";

    /// <summary>The statistics of one project build, created on first use.</summary>
    public static ProjectStatistics? ForProject(IBuildEngine engine, int projectContextId) =>
        BuildScoped.GetOrCreate(engine, Key, () => new ConcurrentDictionary<int, ProjectStatistics>())
            ?.GetOrAdd(projectContextId, _ => new ProjectStatistics());

    /// <summary>Takes a project build's statistics out, for its summary; null when its Copy calls did nothing.</summary>
    public static ProjectStatistics? Take(IBuildEngine engine, int projectContextId) =>
        BuildScoped.Get<ConcurrentDictionary<int, ProjectStatistics>>(engine, Key)?.TryRemove(projectContextId, out ProjectStatistics? statistics) == true
            ? statistics
            : null;
}
