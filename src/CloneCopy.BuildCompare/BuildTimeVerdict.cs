using System;
using System.Globalization;

namespace CloneCopy.BuildCompare;

/// <summary>What a build-time comparison allows one to say.</summary>
public enum VerdictKind
{
    /// <summary>The difference is larger than the Copy task's whole time: CloneCopy, which changes only the Copy task, cannot have caused it.</summary>
    NotCausedByCloneCopy,

    /// <summary>The two ways' min–max ranges overlap: the difference is within the builds' own variation.</summary>
    WithinNoise,

    /// <summary>One build each way: no range to judge noise by.</summary>
    TooFewBuilds,

    /// <summary>The ranges do not overlap and the difference is within what the Copy task could account for.</summary>
    Difference,
}

/// <summary>
/// Tells a build-time difference from noise, in a sentence a user can quote. CloneCopy replaces only the Copy
/// task, so a build-time difference larger than the Copy task's entire time (the slower way's median, from
/// MSBuild's performance summary) cannot have been caused by it: that is checked first. Otherwise, two ways whose
/// min–max ranges overlap are not different. Only ranges that do not overlap, by no more than the Copy task could
/// account for, are reported as a difference.
/// </summary>
/// <param name="DifferenceSeconds">CloneCopy's median build time minus MSBuild's Copy's (negative: CloneCopy faster).</param>
/// <param name="CopyTaskSeconds">The larger of the two ways' median Copy task times; null when the logs did not say.</param>
public sealed record BuildTimeVerdict(VerdictKind Kind, double DifferenceSeconds, bool RangesOverlap, double? CopyTaskSeconds, string Sentence)
{
    public static BuildTimeVerdict Of(WayStatistics cloneCopy, WayStatistics msbuildCopy)
    {
        double difference = cloneCopy.MedianSeconds - msbuildCopy.MedianSeconds;
        bool overlap = cloneCopy.MinSeconds <= msbuildCopy.MaxSeconds && msbuildCopy.MinSeconds <= cloneCopy.MaxSeconds;
        double? copyTask = cloneCopy.MedianCopyTaskMilliseconds is double c && msbuildCopy.MedianCopyTaskMilliseconds is double m
            ? Math.Max(c, m) / 1000
            : null;
        string ranges = Inv($"CloneCopy {Range(cloneCopy)}, MSBuild's Copy {Range(msbuildCopy)}");
        string by = Inv($"{Math.Abs(difference):0.00} s");

        if (copyTask is double whole && Math.Abs(difference) > whole)
        {
            return new(VerdictKind.NotCausedByCloneCopy, difference, overlap, copyTask, Inv(
                $"Not caused by CloneCopy: the median build times differ by {by}, more than the Copy task's entire time ({whole:0.00} s), and CloneCopy changes only the Copy task; the difference is the builds' own variation or something else on the machine (build times {ranges})."));
        }

        if (cloneCopy.Builds < 2 || msbuildCopy.Builds < 2)
        {
            return new(VerdictKind.TooFewBuilds, difference, overlap, copyTask, Inv(
                $"One build each way cannot tell a difference from noise (build times {ranges}); run with --runs 5 or more."));
        }

        if (overlap)
        {
            return new(VerdictKind.WithinNoise, difference, overlap, copyTask, Inv(
                $"Within noise: the build times' ranges overlap ({ranges}), so the {by} between the medians is not a difference."));
        }

        return new(VerdictKind.Difference, difference, overlap, copyTask, Inv(
            $"CloneCopy {(difference < 0 ? "faster" : "slower")} by {by} (median): the build times' ranges do not overlap ({ranges})."));
    }

    private static string Range(WayStatistics way) => Inv($"{way.MinSeconds:0.00}–{way.MaxSeconds:0.00} s");

    private static string Inv(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
