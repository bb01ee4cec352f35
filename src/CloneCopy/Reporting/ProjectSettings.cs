using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// The CloneCopy switches of one project configuration (its file with its global properties), as CloneCopySettings
/// read them, for the Copy calls of every request MSBuild makes of that configuration.
/// <para>
/// Keyed by the project instance id MSBuild stamps on a task's events, not by the project build (the request) that
/// <see cref="BuildStatistics"/> counts per: Sdk.targets runs CloneCopySettings as an initial target, which MSBuild runs
/// once per configuration, in its first request, and that is often not the request that copies. A referenced project
/// is first asked for its target frameworks, then built: keyed by request, its copies never saw the switches.
/// A configuration is built on one node, so the node's build-scoped object holds all of it.
/// </para>
/// </summary>
internal sealed class ProjectSettings
{
    private const string Key = "CloneCopy.ProjectSettings";

    /// <summary>CloneCopyClonesInsteadOfLinks.</summary>
    public bool ClonesInsteadOfLinks { get; set; }

    /// <summary>CloneCopyAtomicReplace.</summary>
    public bool AtomicReplace { get; set; }

    /// <summary>The settings of a configuration, created on first use (by CloneCopySettings).</summary>
    /// <remarks>Keyed by the id's text: a dictionary keyed by int would cost its own JIT in a fresh node.</remarks>
    public static ProjectSettings? For(IBuildEngine engine, int projectInstanceId) =>
        BuildScoped.GetOrCreate(engine, Key, () => new ConcurrentDictionary<string, ProjectSettings>())
            ?.GetOrAdd(projectInstanceId.ToString(CultureInfo.InvariantCulture), _ => new ProjectSettings());

    /// <summary>The settings CloneCopySettings set for a configuration in this build; null where it set none.</summary>
    public static ProjectSettings? Find(IBuildEngine engine, int projectInstanceId) =>
        BuildScoped.Get<ConcurrentDictionary<string, ProjectSettings>>(engine, Key) is { } all
        && all.TryGetValue(projectInstanceId.ToString(CultureInfo.InvariantCulture), out ProjectSettings? settings)
            ? settings
            : null;
}
