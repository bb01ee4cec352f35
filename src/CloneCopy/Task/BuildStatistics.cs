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

    public static ProjectStatistics? ForProject(IBuildEngine engine, int projectContextId, bool create)
    {
        if (engine is not IBuildEngine4 engine4)
        {
            return null;
        }

        var all = engine4.GetRegisteredTaskObject(Key, RegisteredTaskObjectLifetime.Build) as ConcurrentDictionary<int, ProjectStatistics>;
        if (all is null)
        {
            if (!create)
            {
                return null;
            }

            engine4.RegisterTaskObject(Key, new ConcurrentDictionary<int, ProjectStatistics>(), RegisteredTaskObjectLifetime.Build, allowEarlyCollection: false);
            all = (ConcurrentDictionary<int, ProjectStatistics>)engine4.GetRegisteredTaskObject(Key, RegisteredTaskObjectLifetime.Build);
        }

        if (create)
        {
            return all.GetOrAdd(projectContextId, _ => new ProjectStatistics());
        }

        all.TryRemove(projectContextId, out ProjectStatistics? statistics);
        return statistics;
    }
}
