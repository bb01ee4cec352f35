using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text.RegularExpressions;

namespace CloneCopy.BuildCompare;

/// <summary>What one build's console log says: CloneCopy's per-project summary lines and the Copy task's total time.</summary>
public static partial class BuildLogReader
{
    /// <summary>Files CloneCopy handled in one build, summed over its per-project summary lines of every stage.</summary>
    public sealed record CopySummary(int Projects, int Cloned, int Copied, int UpToDate, int Failed, IReadOnlyDictionary<string, int> CopiedBecause)
    {
        public static readonly CopySummary None = new(0, 0, 0, 0, 0, new Dictionary<string, int>());
    }

    /// <summary>
    /// Sums every "CloneCopy: 12 files cloned (1.0 MB not written), 3 copied (different volumes: 3) [App]" line, and the
    /// same lines of a repository that sets CloneCopyAtomicReplace ("…, atomic replace on [App]").
    /// </summary>
    public static CopySummary ReadSummary(IEnumerable<string> lines)
    {
        int projects = 0, cloned = 0, copied = 0, upToDate = 0, failed = 0;
        var because = new SortedDictionary<string, int>(StringComparer.Ordinal);
        foreach (string line in lines)
        {
            var match = SummaryLine().Match(line);
            if (!match.Success)
            {
                continue;
            }

            projects++;
            cloned += Number(match, "cloned");
            copied += Number(match, "copied");
            upToDate += Number(match, "uptodate");
            failed += Number(match, "failed");
            if (match.Groups["reasons"].Success)
            {
                foreach (string reason in match.Groups["reasons"].Value.Split(", "))
                {
                    int colon = reason.LastIndexOf(": ", StringComparison.Ordinal);
                    if (colon > 0)
                    {
                        string name = reason[..colon];
                        because[name] = because.GetValueOrDefault(name) + int.Parse(reason[(colon + 2)..], CultureInfo.InvariantCulture);
                    }
                }
            }
        }

        return new CopySummary(projects, cloned, copied, upToDate, failed, because);
    }

    /// <summary>
    /// The Copy task's total time in milliseconds from MSBuild's "Task Performance Summary" (-clp:PerformanceSummary):
    /// "      123 ms  Copy                                      45 calls". Null when the log has no such line.
    /// </summary>
    public static double? ReadCopyTaskMilliseconds(IEnumerable<string> lines)
    {
        bool inTaskSummary = false;
        foreach (string line in lines)
        {
            if (line.Contains("Task Performance Summary:", StringComparison.Ordinal))
            {
                inTaskSummary = true;
                continue;
            }

            if (inTaskSummary)
            {
                var match = CopyTaskLine().Match(line);
                if (match.Success)
                {
                    return double.Parse(match.Groups["ms"].Value, CultureInfo.InvariantCulture);
                }

                if (line.Trim().Length == 0 || line.Contains("Performance Summary:", StringComparison.Ordinal))
                {
                    inTaskSummary = false;
                }
            }
        }

        return null;
    }

    /// <summary>The projects whose build said the given line (from the injected targets), by name.</summary>
    public static IReadOnlyList<string> ProjectsSaying(IEnumerable<string> lines, string text) =>
        lines.Select(l => l.Trim())
            .Where(l => l.StartsWith(text + " [", StringComparison.Ordinal) && l.EndsWith(']'))
            .Select(l => l[(text.Length + 2)..^1])
            .Distinct(StringComparer.Ordinal)
            .ToList();

    /// <summary>The first lines naming an error ("error CS1002", "error MSB3027"), for the message shown to the user.</summary>
    public static IReadOnlyList<string> Errors(IEnumerable<string> lines, int most = 5) =>
        lines.Where(l => ErrorLine().IsMatch(l)).Select(l => l.Trim()).Distinct(StringComparer.Ordinal).Take(most).ToList();

    private static int Number(Match match, string group) =>
        match.Groups[group].Success ? int.Parse(match.Groups[group].Value, CultureInfo.InvariantCulture) : 0;

    [GeneratedRegex(@"^\s*CloneCopy(?: \([^)]+\))?: (?<cloned>\d+) files? cloned \([^)]* not written[^)]*\)(?:, (?<copied>\d+) copied \((?<reasons>[^)]*)\))?(?:, (?<linked>\d+) linked)?(?:, (?<uptodate>\d+) up to date)?(?:, (?<failed>\d+) failed)?(?:, atomic replace on)? \[[^\]]+\]\s*$")]
    private static partial Regex SummaryLine();

    [GeneratedRegex(@"^\s*(?<ms>\d+(?:\.\d+)?) ms\s+Copy\s+\d+ calls?\s*$")]
    private static partial Regex CopyTaskLine();

    [GeneratedRegex(@"(?:^|\s)error [A-Z]+\d+|: error\b")]
    private static partial Regex ErrorLine();
}
