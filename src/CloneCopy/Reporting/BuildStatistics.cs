using System.Collections.Concurrent;
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// The statistics of every project build on this MSBuild node during this build, keyed by the project
/// build's context id, and whether a summary has been said for it already (then later Copy calls in that
/// project build, such as a user's own target after Build, report themselves). Lives in a task object
/// registered for the build, so a reused node starts afresh.
/// </summary>
internal static class BuildStatistics
{
    private const string Key = "CloneCopy.ProjectStatistics";

    /// <summary>The statistics of one project build, created on first use.</summary>
    /// <remarks>Keyed by the id's text: a dictionary keyed by int would cost its own JIT in a fresh node.</remarks>
    public static ProjectBuild? ForProject(IBuildEngine engine, int projectContextId) =>
        BuildScoped.GetOrCreate(engine, Key, () => new ConcurrentDictionary<string, ProjectBuild>())
            ?.GetOrAdd(projectContextId.ToString(System.Globalization.CultureInfo.InvariantCulture), _ => new ProjectBuild());

    /// <summary>What one project build's Copy calls did since its last summary, and where it stands.</summary>
    internal sealed class ProjectBuild
    {
        private readonly object _lock = new();
        private ProjectStatistics _pending = new();
        private string? _openStage;

        /// <summary>The project as its summary named it ("App", or "Scrutor net8.0" where it has several frameworks), known once a summary has been said.</summary>
        public string? ProjectName { get; private set; }

        /// <summary>The stage of the last summary said (Build, Publish, Pack): a Copy after it says it came after that one.</summary>
        public string? LastStage { get; private set; }

        /// <summary>
        /// Where a Copy's statistics go: into the next summary (none said yet, or a stage such as Publish
        /// has begun whose summary will come), or nowhere (null: a summary was said and none is coming, as for
        /// a user's own target after Build; the Copy reports itself).
        /// </summary>
        public bool TryAdd(ProjectStatistics statistics)
        {
            lock (_lock)
            {
                if (ProjectName is not null && _openStage is null)
                {
                    return false;
                }

                _pending.Merge(statistics);
                return true;
            }
        }

        /// <summary>A stage begins (Publish, Pack) whose summary will report the copies made in it.</summary>
        public void BeginStage(string stage)
        {
            lock (_lock)
            {
                _openStage = stage;
            }
        }

        /// <summary>Takes what was counted since the last summary, for this one (of <paramref name="stage"/>), and closes the stage.</summary>
        public ProjectStatistics TakeForSummary(string projectName, string stage)
        {
            lock (_lock)
            {
                ProjectStatistics taken = _pending;
                _pending = new ProjectStatistics();
                _openStage = null;
                ProjectName = projectName;
                LastStage = stage;
                return taken;
            }
        }
    }
}
