using System;
using System.Collections.Generic;
using System.Linq;

namespace CloneCopy.BuildCompare;

/// <summary>One clean build: which way, whether it was the untimed warm-up, and what it measured.</summary>
/// <param name="DiskBytes">Filesystem used bytes after the build minus before it (see <see cref="FilesystemUsage"/>).</param>
/// <param name="Extents">The outputs' extent maps, shared ranges once (Linux; see <see cref="SharedExtents"/>).</param>
public sealed record BuildRun(
    int Sequence,
    BuildWay Way,
    bool WarmUp,
    double Seconds,
    double? CopyTaskMilliseconds,
    long DiskBytes,
    SharedExtents.Usage? Extents,
    int OutputFiles,
    BuildLogReader.CopySummary Copies,
    string Log)
{
    /// <summary>False when the filesystem's count exceeds what the outputs' extents can account for (see <see cref="DiskPlausibility"/>).</summary>
    public bool DiskPlausible => DiskPlausibility.IsPlausible(this);
}

/// <summary>Median, fastest and slowest of one way's timed builds, for the build and for the Copy task.</summary>
/// <param name="DiskImplausible">A timed build's filesystem count exceeded what its outputs' extents can account
/// for (see <see cref="DiskPlausibility"/>): something else wrote to that filesystem meanwhile.</param>
public sealed record WayStatistics(
    BuildWay Way,
    int Builds,
    double MedianSeconds,
    double MinSeconds,
    double MaxSeconds,
    double? MedianCopyTaskMilliseconds,
    double? MinCopyTaskMilliseconds,
    double? MaxCopyTaskMilliseconds,
    long MedianDiskBytes,
    bool DiskImplausible)
{
    public static WayStatistics Of(BuildWay way, IReadOnlyList<BuildRun> builds)
    {
        var timed = builds.Where(b => b.Way == way && !b.WarmUp).ToList();
        var copyTimes = timed.Where(b => b.CopyTaskMilliseconds.HasValue).Select(b => b.CopyTaskMilliseconds!.Value).ToList();
        return new WayStatistics(
            way,
            timed.Count,
            Median(timed.Select(b => b.Seconds).ToList()),
            timed.Min(b => b.Seconds),
            timed.Max(b => b.Seconds),
            copyTimes.Count == 0 ? null : Median(copyTimes),
            copyTimes.Count == 0 ? null : copyTimes.Min(),
            copyTimes.Count == 0 ? null : copyTimes.Max(),
            (long)Median(timed.Select(b => (double)b.DiskBytes).ToList()),
            timed.Any(b => !b.DiskPlausible));
    }

    public static double Median(IReadOnlyList<double> values)
    {
        var sorted = values.Order().ToList();
        int middle = sorted.Count / 2;
        return sorted.Count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}

/// <summary>Everything one comparison measured: the input, every build, and whether the outputs matched.</summary>
/// <param name="OutputDifferences">Output files that differ between the ways (missing on one side, or other bytes).</param>
/// <param name="CacheDifferences">MSBuild's own incremental-build caches (obj/*.cache) that differ: they record
/// the timestamps of their inputs, which a clean build renews, so they are listed apart and do not make the
/// outputs "differ".</param>
public sealed record ComparisonResult(
    string Target,
    string Root,
    string Filesystem,
    int Runs,
    IReadOnlyList<string> BuildArguments,
    string CloneCopySource,
    DateTimeOffset Started,
    IReadOnlyList<BuildRun> Builds,
    int ComparedOutputFiles,
    IReadOnlyList<string> OutputDifferences,
    IReadOnlyList<string> CacheDifferences)
{
    public WayStatistics CloneCopy => WayStatistics.Of(BuildWay.CloneCopy, Builds);

    public WayStatistics MSBuildCopy => WayStatistics.Of(BuildWay.MSBuildCopy, Builds);

    /// <summary>CloneCopy's median build time over MSBuild's Copy's (below 1: CloneCopy faster).</summary>
    public double Ratio => CloneCopy.MedianSeconds / MSBuildCopy.MedianSeconds;

    /// <summary>What the build-time difference means: noise, not CloneCopy's doing, or a difference (see <see cref="BuildTimeVerdict"/>).</summary>
    public BuildTimeVerdict Verdict => BuildTimeVerdict.Of(CloneCopy, MSBuildCopy);

    /// <summary>The last timed build of a way: the one whose files, reasons and outputs the report shows.</summary>
    public BuildRun Last(BuildWay way) => Builds.Last(b => b.Way == way);
}
