using System;
using System.Globalization;
using System.Linq;
using System.Text;

namespace CloneCopy.BuildCompare;

/// <summary>The report for people and CI job summaries: one table of both ways, then what CloneCopy did and whether the outputs matched.</summary>
public static class MarkdownReport
{
    public static string Write(ComparisonResult result, string chartFileName)
    {
        var cc = result.CloneCopy;
        var ms = result.MSBuildCopy;
        var text = new StringBuilder();
        text.AppendLine(Inv($"## Build time with CloneCopy and with MSBuild's Copy: {System.IO.Path.GetFileName(result.Target)}"));
        text.AppendLine();
        string arguments = result.BuildArguments.Count == 0 ? "no extra arguments" : "`" + string.Join(' ', result.BuildArguments) + "`";
        text.AppendLine(Inv($"{result.Runs} clean {(result.Runs == 1 ? "build" : "builds")} each way, alternating, after one warm-up build each way; {arguments}; on {result.Filesystem} at `{result.Root}`; CloneCopy: {result.CloneCopySource}."));
        text.AppendLine();
        text.AppendLine(Inv($"**What CloneCopy can change:** {CopyTaskHeadline(cc, ms)}; {DiskHeadline(result)}."));
        text.AppendLine();
        text.AppendLine(Inv($"**Build time:** {result.Verdict.Sentence}"));
        foreach (var way in new[] { ms, cc }.Where(w => w.DiskImplausible))
        {
            var flagged = result.Builds.Where(b => b.Way == way.Way && !b.WarmUp && !b.DiskPlausible).MaxBy(b => b.DiskBytes)!;
            text.AppendLine();
            text.AppendLine(Inv($"**Disk figure not plausible ({way.Way.Title()}):** in build {flagged.Sequence} the filesystem's used bytes grew by {SizeText.Format(flagged.DiskBytes)}, more than the outputs' extents ({SizeText.Format(flagged.Extents!.PhysicalBytes)}) and the filesystem's own bookkeeping can account for: something else wrote to this filesystem during the builds. Read the extents column for what the outputs take."));
        }

        text.AppendLine();
        text.AppendLine("| | median build | min – max | Copy task (median) | Copy task min – max | files cloned | files copied | disk the outputs take (filesystem) | outputs' extents, shared ranges once |");
        text.AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var way in new[] { ms, cc })
        {
            var last = result.Last(way.Way);
            string copyTask = way.MedianCopyTaskMilliseconds is double t ? Inv($"{t / 1000:0.00} s") : "not in the log";
            string copyRange = way.MinCopyTaskMilliseconds is double lo && way.MaxCopyTaskMilliseconds is double hi ? Inv($"{lo / 1000:0.00} – {hi / 1000:0.00} s") : "—";
            // MSBuild's Copy does not say whether File.Copy cloned (on Linux and macOS it may): no count for it.
            string cloned = way.Way == BuildWay.CloneCopy ? Inv($"{last.Copies.Cloned}") : "not reported";
            string copied = way.Way == BuildWay.CloneCopy ? Inv($"{last.Copies.Copied}") : "not reported";
            string extents = last.Extents is { } e ? Inv($"{SizeText.Format(e.PhysicalBytes)} ({SizeText.Format(e.ExclusiveBytes)} not shared)") : "not measurable here";
            string disk = SizeText.Format(way.MedianDiskBytes) + (way.DiskImplausible ? " (not plausible, above)" : string.Empty);
            text.AppendLine(Inv($"| {way.Way.Title()} | {way.MedianSeconds:0.00} s | {way.MinSeconds:0.00} – {way.MaxSeconds:0.00} s | {copyTask} | {copyRange} | {cloned} | {copied} | {disk} | {extents} |"));
        }

        text.AppendLine();
        var copies = result.Last(BuildWay.CloneCopy).Copies;
        text.AppendLine(Inv($"CloneCopy's summary lines ({copies.Projects} in its last build): {copies.Cloned} files cloned, {copies.Copied} copied, {copies.UpToDate} up to date{(copies.Failed > 0 ? Inv($", {copies.Failed} failed") : string.Empty)}."));
        if (copies.CopiedBecause.Count > 0)
        {
            text.AppendLine();
            text.AppendLine("| copied rather than cloned because | files |");
            text.AppendLine("|---|---:|");
            foreach (var reason in copies.CopiedBecause)
            {
                text.AppendLine(Inv($"| {reason.Key} | {reason.Value} |"));
            }
        }

        text.AppendLine();
        text.AppendLine(result.OutputDifferences.Count == 0
            ? Inv($"**Same outputs:** both ways produced the same {result.ComparedOutputFiles} files with the same bytes{(result.CacheDifferences.Count > 0 ? " (but for the caches below)" : string.Empty)}.")
            : Inv($"**Outputs differ:** {result.OutputDifferences.Count} of {result.ComparedOutputFiles} files: {string.Join("; ", result.OutputDifferences.Take(10))}{(result.OutputDifferences.Count > 10 ? "; …" : string.Empty)}"));
        if (result.CacheDifferences.Count > 0)
        {
            text.AppendLine();
            text.AppendLine(Inv($"Not counted as a difference: {result.CacheDifferences.Count} of MSBuild's incremental-build caches, which record their inputs' timestamps ({string.Join("; ", result.CacheDifferences.Take(5))}{(result.CacheDifferences.Count > 5 ? "; …" : string.Empty)})."));
        }
        text.AppendLine();
        text.AppendLine("Every build, in order (seconds):");
        text.AppendLine();
        text.AppendLine("| # | way | time | Copy task | disk (filesystem) |");
        text.AppendLine("|---:|---|---:|---:|---:|");
        foreach (var build in result.Builds)
        {
            string copyTask = build.CopyTaskMilliseconds is double t ? Inv($"{t / 1000:0.00} s") : "—";
            text.AppendLine(Inv($"| {(build.WarmUp ? "warm-up" : build.Sequence.ToString(CultureInfo.InvariantCulture))} | {build.Way.Title()} | {build.Seconds:0.00} s | {copyTask} | {SizeText.Format(build.DiskBytes)} |"));
        }

        text.AppendLine();
        text.AppendLine(Inv($"Chart: `{chartFileName}`. \"Disk (filesystem)\": used bytes of the filesystem after the build minus before it, so blocks a clone shares count once; anything else writing to that filesystem meanwhile counts too. \"Extents\": the physical ranges of the outputs' extent maps, each counted once; \"not shared\" is what no other file uses."));
        return text.ToString();
    }

    /// <summary>"the Copy task took 0.22 s with CloneCopy (0.20–0.25 s) and 0.16 s with MSBuild's Copy (0.15–0.18 s)".</summary>
    private static string CopyTaskHeadline(WayStatistics cc, WayStatistics ms)
    {
        if (cc.MedianCopyTaskMilliseconds is not double c || ms.MedianCopyTaskMilliseconds is not double m)
        {
            return "the Copy task's time is not in the build logs (MSBuild's performance summary was missing)";
        }

        return Inv($"the Copy task took {c / 1000:0.00} s with CloneCopy ({cc.MinCopyTaskMilliseconds / 1000:0.00}–{cc.MaxCopyTaskMilliseconds / 1000:0.00} s) and {m / 1000:0.00} s with MSBuild's Copy ({ms.MinCopyTaskMilliseconds / 1000:0.00}–{ms.MaxCopyTaskMilliseconds / 1000:0.00} s)");
    }

    /// <summary>
    /// The disk the outputs take each way: the filesystem's count (which credits clones of files outside the outputs,
    /// such as the package cache), unless it is not plausible; then the outputs' extents, which nothing else counts in.
    /// </summary>
    private static string DiskHeadline(ComparisonResult result)
    {
        if (!result.CloneCopy.DiskImplausible && !result.MSBuildCopy.DiskImplausible)
        {
            return Inv($"the outputs take {SizeText.Format(result.CloneCopy.MedianDiskBytes)} on disk with CloneCopy and {SizeText.Format(result.MSBuildCopy.MedianDiskBytes)} with MSBuild's Copy (the filesystem's used bytes, medians)");
        }

        var cc = result.Last(BuildWay.CloneCopy).Extents!;
        var ms = result.Last(BuildWay.MSBuildCopy).Extents!;
        return Inv($"the filesystem's count of the disk they take is not plausible (below); the outputs' extents, shared ranges once: {SizeText.Format(cc.PhysicalBytes)} with CloneCopy and {SizeText.Format(ms.PhysicalBytes)} with MSBuild's Copy");
    }

    private static string Inv(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
