using System;
using System.Collections.Generic;
using System.Linq;
using CloneCopy.BuildCompare;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>Made-up builds and comparisons for the report's tests: the figures a real comparison would read from its logs.</summary>
internal static class Builds
{
    private static readonly BuildLogReader.CopySummary Copies = new(1, 10, 2, 0, 0, new Dictionary<string, int> { ["the filesystem cannot clone"] = 2 });

    /// <summary>Timed builds alternating CloneCopy first, with these seconds and Copy task milliseconds each way.</summary>
    public static List<BuildRun> Timed(double[] cloneCopySeconds, double[] msbuildSeconds, double cloneCopyTaskMs, double msbuildTaskMs,
        long diskBytes = 10_000_000, SharedExtents.Usage? extents = null)
    {
        var builds = new List<BuildRun>
        {
            Run(0, BuildWay.CloneCopy, 60, cloneCopyTaskMs, diskBytes, extents),
            Run(0, BuildWay.MSBuildCopy, 60, msbuildTaskMs, diskBytes, extents),
        };
        int sequence = 1;
        for (int i = 0; i < Math.Max(cloneCopySeconds.Length, msbuildSeconds.Length); i++)
        {
            if (i < cloneCopySeconds.Length)
            {
                builds.Add(Run(sequence++, BuildWay.CloneCopy, cloneCopySeconds[i], cloneCopyTaskMs, diskBytes, extents));
            }

            if (i < msbuildSeconds.Length)
            {
                builds.Add(Run(sequence++, BuildWay.MSBuildCopy, msbuildSeconds[i], msbuildTaskMs, diskBytes, extents));
            }
        }

        return builds;
    }

    public static BuildRun Run(int sequence, BuildWay way, double seconds, double? copyTaskMs, long diskBytes, SharedExtents.Usage? extents) =>
        new(sequence, way, sequence == 0, seconds, copyTaskMs, diskBytes, extents, 20, Copies, $"logs/build-{sequence:00}-{way.Key()}.log");

    public static ComparisonResult Result(List<BuildRun> builds) =>
        new("/repo/Serilog.sln", "/repo", "xfs", builds.Count(b => !b.WarmUp && b.Way == BuildWay.CloneCopy), [], "injected", DateTimeOffset.UnixEpoch, builds, 20, [], []);
}
