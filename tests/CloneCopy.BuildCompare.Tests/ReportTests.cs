using System.IO;
using System.Text.Json;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>
/// The report, the JSON and the chart tell a difference from noise in words a user can quote, and lead with what
/// CloneCopy can change (the Copy task's time, the disk); a disk figure the outputs cannot account for is flagged.
/// </summary>
public sealed class ReportTests
{
    /// <summary>Serilog, as a user saw it: "CloneCopy faster by 4.82 s" while its Copy task took 0.22 s against 0.16 s.</summary>
    [Fact]
    public void A_difference_larger_than_the_Copy_tasks_whole_time_is_not_caused_by_CloneCopy_in_report_json_and_chart()
    {
        var result = Builds.Result(Builds.Timed([28.1, 28.6, 29.0], [33.2, 33.9, 32.5], cloneCopyTaskMs: 220, msbuildTaskMs: 160));

        string report = MarkdownReport.Write(result, "builds.svg");
        string json = Json(result);
        string chart = TimeChart.Svg(result);

        Assert.Equal(VerdictKind.NotCausedByCloneCopy, result.Verdict.Kind);
        Assert.Contains("**Build time:** Not caused by CloneCopy: the median build times differ by 4.60 s, more than the Copy task's entire time (0.22 s)", report);
        Assert.Contains("CloneCopy 28.10–29.00 s, MSBuild's Copy 32.50–33.90 s", report);
        Assert.DoesNotContain("faster by", report);
        Assert.Contains("**What CloneCopy can change:** the Copy task took 0.22 s with CloneCopy (0.22–0.22 s) and 0.16 s with MSBuild's Copy (0.16–0.16 s)", report);
        using var document = JsonDocument.Parse(json);
        var verdict = document.RootElement.GetProperty("summary").GetProperty("verdict");
        Assert.Equal("notCausedByCloneCopy", verdict.GetProperty("kind").GetString());
        Assert.StartsWith("Not caused by CloneCopy", verdict.GetProperty("sentence").GetString());
        Assert.Equal(0.22, verdict.GetProperty("copyTaskSeconds").GetDouble(), 3);
        Assert.Contains("Not caused by CloneCopy", chart);
        Assert.Contains("The Copy task (what CloneCopy changes): 0.22 s with CloneCopy, 0.16 s with MSBuild&apos;s Copy", chart);
    }

    [Fact]
    public void Overlapping_ranges_are_within_noise()
    {
        var result = Builds.Result(Builds.Timed([10.0, 10.6, 10.2], [10.3, 10.1, 10.8], cloneCopyTaskMs: 900, msbuildTaskMs: 1200));

        string report = MarkdownReport.Write(result, "builds.svg");

        Assert.Equal(VerdictKind.WithinNoise, result.Verdict.Kind);
        Assert.Contains("**Build time:** Within noise: the build times' ranges overlap (CloneCopy 10.00–10.60 s, MSBuild's Copy 10.10–10.80 s), so the 0.10 s between the medians is not a difference.", report);
        Assert.Contains("range 10.00–10.60 s", TimeChart.Svg(result));
    }

    [Fact]
    public void Ranges_apart_by_less_than_the_Copy_task_are_a_difference()
    {
        var result = Builds.Result(Builds.Timed([10.0, 10.1, 10.2], [10.5, 10.6, 10.7], cloneCopyTaskMs: 300, msbuildTaskMs: 900));

        Assert.Equal(VerdictKind.Difference, result.Verdict.Kind);
        Assert.Contains("**Build time:** CloneCopy faster by 0.50 s (median): the build times' ranges do not overlap", MarkdownReport.Write(result, "builds.svg"));
    }

    /// <summary>Every CloneCopy build slower than every MSBuild's Copy build: a difference, said as one, never noise.</summary>
    [Fact]
    public void Ranges_apart_with_CloneCopy_slower_are_a_difference()
    {
        var result = Builds.Result(Builds.Timed([10.5, 10.6, 10.7], [10.0, 10.1, 10.2], cloneCopyTaskMs: 900, msbuildTaskMs: 300));

        Assert.Equal(VerdictKind.Difference, result.Verdict.Kind);
        Assert.False(result.Verdict.RangesOverlap);
        Assert.Contains("**Build time:** CloneCopy slower by 0.50 s (median): the build times' ranges do not overlap (CloneCopy 10.50–10.70 s, MSBuild's Copy 10.00–10.20 s).", MarkdownReport.Write(result, "builds.svg"));
    }

    [Fact]
    public void One_build_each_way_cannot_tell_a_difference_from_noise()
    {
        var result = Builds.Result(Builds.Timed([10.0], [10.3], cloneCopyTaskMs: 300, msbuildTaskMs: 900));

        Assert.Equal(VerdictKind.TooFewBuilds, result.Verdict.Kind);
        Assert.Contains("One build each way cannot tell a difference from noise", MarkdownReport.Write(result, "builds.svg"));
    }

    /// <summary>303 MB against 126.6 MB of extents, from other work on the same filesystem: flagged, and the headline uses the extents.</summary>
    [Fact]
    public void A_disk_figure_the_outputs_extents_cannot_account_for_is_flagged()
    {
        var extents = new SharedExtents.Usage(132_750_000, 100_000_000, 32_750_000);
        var result = Builds.Result(Builds.Timed([10.0, 10.1, 10.2], [10.1, 10.2, 10.3], 300, 400, diskBytes: 303_000_000, extents: extents));

        string report = MarkdownReport.Write(result, "builds.svg");

        Assert.True(result.CloneCopy.DiskImplausible);
        Assert.Contains("**Disk figure not plausible (CloneCopy):** in build ", report);
        Assert.Contains("grew by 289.0 MB, more than the outputs' extents (126.6 MB)", report);
        Assert.Contains("the filesystem's count of the disk they take is not plausible (below); the outputs' extents, shared ranges once: 126.6 MB with CloneCopy", report);
        Assert.Contains("| 289.0 MB (not plausible, above) |", report);
        using var document = JsonDocument.Parse(Json(result));
        Assert.True(document.RootElement.GetProperty("summary").GetProperty("cloneCopy").GetProperty("diskImplausible").GetBoolean());
        Assert.False(document.RootElement.GetProperty("builds")[2].GetProperty("diskPlausible").GetBoolean());
    }

    [Fact]
    public void A_disk_figure_the_extents_account_for_is_the_headline_without_comment()
    {
        var extents = new SharedExtents.Usage(132_750_000, 100_000_000, 32_750_000);
        var result = Builds.Result(Builds.Timed([10.0, 10.1, 10.2], [10.1, 10.2, 10.3], 300, 400, diskBytes: 60_000_000, extents: extents));

        string report = MarkdownReport.Write(result, "builds.svg");

        Assert.False(result.CloneCopy.DiskImplausible);
        Assert.DoesNotContain("not plausible", report);
        Assert.Contains("the outputs take 57.2 MB on disk with CloneCopy and 57.2 MB with MSBuild's Copy (the filesystem's used bytes, medians)", report);
    }

    private static string Json(ComparisonResult result)
    {
        string path = Path.GetTempFileName();
        try
        {
            JsonReport.Write(result, path);
            return File.ReadAllText(path);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
