using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace CloneCopy.Tests.Differential.Generated;

/// <summary>
/// Runs generated cases through MSBuild's Copy and CloneCopy's, as the differential suite runs a scenario.
/// Each case first runs MSBuild's Copy against itself on two fresh trees (and a few more times before a
/// difference is believed): a case where it does not agree with itself (its threads racing) is skipped and
/// counted, since no task could match it. A case that
/// differs is shrunk to the smallest case that still differs, and reported with its seed.
/// </summary>
public static class GeneratedDifferential
{
    /// <summary>The seeds CI runs, unless CLONECOPY_GEN_SEED and CLONECOPY_GEN_CASES ask for others.</summary>
    public const int DefaultFirstSeed = 1;

    public static (int First, int Count) SeedsFromEnvironment(int defaultCount)
    {
        int first = int.TryParse(Environment.GetEnvironmentVariable("CLONECOPY_GEN_SEED"), out int seed) ? seed : DefaultFirstSeed;
        int count = int.TryParse(Environment.GetEnvironmentVariable("CLONECOPY_GEN_CASES"), out int cases) && cases > 0 ? cases : defaultCount;
        return (first, count);
    }

    public static GeneratedReport Run(int firstSeed, int count, string parent)
    {
        var report = new GeneratedReport(firstSeed, count);
        for (int seed = firstSeed; seed < firstSeed + count; seed++)
        {
            GeneratedCase generated = CaseGenerator.Make(seed);
            switch (Judge(generated, parent, out string difference))
            {
                case Verdict.Same:
                    report.Same++;
                    break;
                case Verdict.BuiltInNotDeterministic:
                    report.SkippedNondeterministic.Add(seed);
                    break;
                case Verdict.Different:
                    GeneratedCase smallest = Shrink(generated, parent, ref difference);
                    report.Differences.Add($"{smallest.Describe()}{Environment.NewLine}{difference}");
                    break;
            }
        }

        return report;
    }

    private enum Verdict
    {
        Same,
        Different,
        BuiltInNotDeterministic,
    }

    private static Verdict Judge(GeneratedCase generated, string parent, out string difference)
    {
        CopyScenario scenario = generated.ToScenario();
        if (Compare(scenario, Path.Combine(parent, $"self-{generated.Seed}"), () => new Microsoft.Build.Tasks.Copy()) is string selfDifference)
        {
            if (!string.IsNullOrEmpty(Environment.GetEnvironmentVariable("CLONECOPY_GEN_VERBOSE")))
            {
                Console.Error.WriteLine($"{generated.Describe()}{Environment.NewLine}MSBuild's Copy against itself:{Environment.NewLine}{selfDifference}");
            }

            difference = string.Empty;
            return Verdict.BuiltInNotDeterministic;
        }

        difference = Compare(scenario, Path.Combine(parent, $"case-{generated.Seed}"), () => new CloneCopy.Copy()) ?? string.Empty;
        if (difference.Length == 0)
        {
            return Verdict.Same;
        }

        // A race between MSBuild's own threads can agree with itself twice by chance: before a difference is
        // believed, MSBuild's Copy must agree with itself a few more times.
        for (int again = 0; again < ExtraSelfChecks; again++)
        {
            if (Compare(scenario, Path.Combine(parent, $"self-{generated.Seed}-{again}"), () => new Microsoft.Build.Tasks.Copy()) is not null)
            {
                difference = string.Empty;
                return Verdict.BuiltInNotDeterministic;
            }
        }

        return Verdict.Different;
    }

    /// <summary>How many more times MSBuild's Copy runs against itself before a difference is reported.</summary>
    private const int ExtraSelfChecks = 4;

    /// <summary>The runner's complaint, or null when the two tasks behaved alike. The trees are removed either way.</summary>
    private static string? Compare(CopyScenario scenario, string directory, Func<Microsoft.Build.Framework.ITask> candidate)
    {
        Directory.CreateDirectory(directory);
        try
        {
            DifferentialRunner.AssertSameBehaviour(scenario, directory, candidate);
            return null;
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return e.Message;
        }
        finally
        {
            if (Directory.Exists(directory))
            {
                foreach (string tree in Directory.GetDirectories(directory))
                {
                    DifferentialRunner.RemoveTree(tree);
                }

                Directory.Delete(directory, recursive: true);
            }
        }
    }

    /// <summary>Greedy: takes the first smaller case that still differs, until none does (at most 300 tries).</summary>
    private static GeneratedCase Shrink(GeneratedCase generated, string parent, ref string difference)
    {
        int tries = 0;
        bool smaller = true;
        while (smaller && tries < 300)
        {
            smaller = false;
            foreach (GeneratedCase candidate in generated.Smaller())
            {
                if (++tries >= 300)
                {
                    break;
                }

                if (Judge(candidate, parent, out string candidateDifference) == Verdict.Different)
                {
                    generated = candidate;
                    difference = candidateDifference;
                    smaller = true;
                    break;
                }
            }
        }

        return generated;
    }
}

/// <summary>What a run of generated cases found.</summary>
public sealed class GeneratedReport
{
    public GeneratedReport(int firstSeed, int count)
    {
        FirstSeed = firstSeed;
        Count = count;
    }

    public int FirstSeed { get; }

    public int Count { get; }

    public int Same { get; set; }

    public List<int> SkippedNondeterministic { get; } = [];

    public List<string> Differences { get; } = [];

    /// <summary>One line: the seeds, how many cases were the same, different, skipped.</summary>
    public string Summary =>
        $"generated cases: seeds {FirstSeed}..{FirstSeed + Count - 1}: {Same} same, {Differences.Count} different, {SkippedNondeterministic.Count} skipped (MSBuild's Copy not deterministic: seeds {string.Join(" ", SkippedNondeterministic)})";

    public override string ToString() =>
        Summary
        + string.Concat(Differences.Select(d => Environment.NewLine + "--- shrunk to:" + Environment.NewLine + d))
        + (Differences.Count > 0 ? $"{Environment.NewLine}reproduce one: CLONECOPY_GEN_SEED=<seed> CLONECOPY_GEN_CASES=1 (see docs/fidelity.md)" : string.Empty);
}
