namespace CloneCopy.BuildCompare;

/// <summary>
/// Whether a build's filesystem count (used bytes after minus before) is one its outputs can explain. The outputs'
/// extents, shared ranges once, are the most their data can take; the filesystem adds metadata (inodes, directories,
/// extent trees) and this tool's own log of the build on top. A count well above that came from something else
/// writing to the same filesystem during the build (another build, a package restore, a backup), and the figure
/// says nothing about CloneCopy: the report flags it instead of showing it as a result.
/// </summary>
public static class DiskPlausibility
{
    /// <summary>Room for metadata and the build's log: a quarter above the extents, and 16 MiB for small outputs.</summary>
    public const double Ratio = 1.25;
    public const long SlackBytes = 16L * 1024 * 1024;

    /// <summary>The most a build's filesystem count can be explained by its outputs; null where extents cannot be read.</summary>
    public static long? MostExplainable(BuildRun build) =>
        build.Extents is { } extents ? (long)(extents.PhysicalBytes * Ratio) + SlackBytes : null;

    /// <summary>True unless the extents were read and the filesystem count exceeds what they can explain.</summary>
    public static bool IsPlausible(BuildRun build) => MostExplainable(build) is not long most || build.DiskBytes <= most;
}
