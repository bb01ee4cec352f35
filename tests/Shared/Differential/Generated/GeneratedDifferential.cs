using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Microsoft.Build.Framework;

namespace CloneCopy.Tests.Differential.Generated;

/// <summary>
/// Runs generated cases through MSBuild's Copy and CloneCopy's, as the differential suite runs a scenario.
/// Each case first runs MSBuild's Copy against itself on two fresh trees (and a few more times before a
/// difference is believed): a case where it does not agree with itself (its threads racing) is skipped and
/// counted, since no task could match it. A difference is believed only when it recurs on fresh trees; then
/// it is shrunk to the smallest case that still differs, and reported with its seed. A difference that does
/// not recur is counted and printed, not reported as a difference; with the skipped cases it may be at most a tenth
/// of a run (<see cref="SkippedShare"/>). An exception from the harness (making, snapshotting or
/// removing a tree) or from MSBuild's Copy is no difference of CloneCopy's: it is reported apart, with the step,
/// the side and the stack.
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

    public static GeneratedReport Run(int firstSeed, int count, string parent) =>
        Run(Enumerable.Range(firstSeed, count).Select(CaseGenerator.Make), parent, DifferentialRunner.CloneCopyTask, new GeneratedReport(firstSeed, count));

    /// <param name="candidate">The task held to MSBuild's Copy: CloneCopy's (tests of the runner give others).</param>
    public static GeneratedReport Run(IEnumerable<GeneratedCase> cases, string parent, Func<ITask> candidate, GeneratedReport report)
    {
        foreach (GeneratedCase generated in cases)
        {
            int seed = generated.Seed;
            switch (Judge(generated, parent, candidate, out string finding))
            {
                case Verdict.Same:
                    report.Same++;
                    break;
                case Verdict.BuiltInNotDeterministic:
                    report.SkippedNondeterministic.Add(seed);
                    break;
                case Verdict.NotReproduced:
                    report.NotReproduced.Add(seed);
                    report.NotReproducedDetails.Add($"seed {seed}: a difference that did not recur on fresh trees{Environment.NewLine}{generated.Describe()}{Environment.NewLine}{finding}");
                    break;
                case Verdict.HarnessFailure:
                    report.HarnessFailures.Add($"seed {seed}: {finding}{Environment.NewLine}{generated.Describe()}");
                    break;
                case Verdict.Different:
                    GeneratedCase smallest = generated;
                    try
                    {
                        smallest = Shrink(generated, parent, candidate, report, ref finding);
                    }
                    catch (Exception e) when (e is not OutOfMemoryException)
                    {
                        report.HarnessFailures.Add($"seed {seed}: the harness failed (step: {DifferentialStepException.Name(DifferentialStep.Shrinking)}), the difference is reported unshrunk{Environment.NewLine}{e}");
                    }

                    report.Differences.Add($"{smallest.Describe()}{Environment.NewLine}{finding}");
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
        NotReproduced,
        HarnessFailure,
    }

    private enum Outcome
    {
        Same,
        Different,
        HarnessFailure,
    }

    /// <param name="finding">What was found: the difference, or the failure with its step, side and stack.</param>
    private static Verdict Judge(GeneratedCase generated, string parent, Func<ITask> candidate, out string finding)
    {
        CopyScenario scenario = generated.ToScenario();
        Func<ITask> builtIn = () => new Microsoft.Build.Tasks.Copy();
        switch (Compare(scenario, Path.Combine(parent, $"self-{generated.Seed}"), builtIn, out finding))
        {
            case Outcome.HarnessFailure:
                return Verdict.HarnessFailure;
            case Outcome.Different:
                if (!string.IsNullOrEmpty(Environment.GetEnvironmentVariable("CLONECOPY_GEN_VERBOSE")))
                {
                    Console.Error.WriteLine($"{generated.Describe()}{Environment.NewLine}MSBuild's Copy against itself:{Environment.NewLine}{finding}");
                }

                finding = string.Empty;
                return Verdict.BuiltInNotDeterministic;
        }

        Outcome outcome = Compare(scenario, Path.Combine(parent, $"case-{generated.Seed}"), candidate, out finding);
        if (outcome != Outcome.Different)
        {
            return outcome == Outcome.Same ? Verdict.Same : Verdict.HarnessFailure;
        }

        // A race between MSBuild's own threads can agree with itself twice by chance: before a difference is
        // believed, MSBuild's Copy must agree with itself a few more times.
        for (int again = 0; again < ExtraSelfChecks; again++)
        {
            switch (Compare(scenario, Path.Combine(parent, $"self-{generated.Seed}-{again}"), builtIn, out string selfFinding))
            {
                case Outcome.HarnessFailure:
                    finding = selfFinding;
                    return Verdict.HarnessFailure;
                case Outcome.Different:
                    finding = string.Empty;
                    return Verdict.BuiltInNotDeterministic;
            }
        }

        // And the difference must recur: one that does not is a race (in the task or around it), not a
        // behaviour a project would meet every time; it is counted and printed, not reported as a difference.
        switch (Compare(scenario, Path.Combine(parent, $"case-{generated.Seed}-again"), candidate, out string againFinding))
        {
            case Outcome.Same:
                return Verdict.NotReproduced;
            case Outcome.HarnessFailure:
                finding = againFinding;
                return Verdict.HarnessFailure;
        }

        return Verdict.Different;
    }

    /// <summary>How many more times MSBuild's Copy runs against itself before a difference is reported.</summary>
    private const int ExtraSelfChecks = 4;

    /// <summary>One comparison on fresh trees under <paramref name="directory"/>, which is removed either way.</summary>
    /// <param name="finding">The difference or the failure (step, side, stack); empty when the two behaved alike.</param>
    private static Outcome Compare(CopyScenario scenario, string directory, Func<ITask> candidate, out string finding)
    {
        Outcome outcome;
        try
        {
            Directory.CreateDirectory(directory);
            DifferentialRunner.AssertSameBehaviour(scenario, directory, candidate);
            (outcome, finding) = (Outcome.Same, string.Empty);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            (outcome, finding) = Classify(e);
        }

        try
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
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            string before = outcome == Outcome.Same ? string.Empty : $"{Environment.NewLine}(before it: {finding})";
            (outcome, finding) = (Outcome.HarnessFailure, $"the harness failed (step: {DifferentialStepException.Name(DifferentialStep.CleanUp)}, removing {directory}){before}{Environment.NewLine}{e}");
        }

        return outcome;
    }

    /// <summary>
    /// Whose is an exception from a comparison: an assertion is a difference between the two tasks; so is an
    /// exception thrown by the candidate's Execute (MSBuild would fail the build). Anything else, from the harness
    /// or from MSBuild's own Copy, is a failure that says nothing about CloneCopy.
    /// </summary>
    private static (Outcome Outcome, string Finding) Classify(Exception e) => e switch
    {
        Xunit.Sdk.IAssertionException => (Outcome.Different, $"{e.Message}{Environment.NewLine}{e.StackTrace}"),
        DifferentialStepException { ThrownByTask: true } step when !step.Side.StartsWith(DifferentialRunner.BuiltInSide, StringComparison.Ordinal) => (Outcome.Different, step.ToString()),
        DifferentialStepException step => (Outcome.HarnessFailure, step.ToString()),
        _ => (Outcome.HarnessFailure, $"the harness failed (step unknown){Environment.NewLine}{e}"),
    };

    /// <summary>Greedy: takes the first smaller case that still differs, until none does (at most 300 tries).</summary>
    private static GeneratedCase Shrink(GeneratedCase generated, string parent, Func<ITask> candidate, GeneratedReport report, ref string difference)
    {
        int tries = 0;
        bool smaller = true;
        while (smaller && tries < 300)
        {
            smaller = false;
            foreach (GeneratedCase smallerCase in generated.Smaller())
            {
                if (++tries >= 300)
                {
                    break;
                }

                switch (Judge(smallerCase, parent, candidate, out string smallerFinding))
                {
                    case Verdict.Different:
                        generated = smallerCase;
                        difference = smallerFinding;
                        smaller = true;
                        break;
                    case Verdict.HarnessFailure:
                        report.HarnessFailures.Add($"seed {generated.Seed} (step: {DifferentialStepException.Name(DifferentialStep.Shrinking)}, a smaller case): {smallerFinding}{Environment.NewLine}{smallerCase.Describe()}");
                        break;
                }

                if (smaller)
                {
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

    /// <summary>Seeds where CloneCopy differed once but not on fresh trees again: counted and printed, and held to <see cref="SkippedShare"/>.</summary>
    public List<int> NotReproduced { get; } = [];

    public List<string> NotReproducedDetails { get; } = [];

    /// <summary>Failures of the harness or of MSBuild's Copy (step, side, stack): no difference of CloneCopy's, but a failure.</summary>
    public List<string> HarnessFailures { get; } = [];

    /// <summary>True when something must be looked at: a reproduced difference, or a harness failure.</summary>
    public bool Failed => Differences.Count > 0 || HarnessFailures.Count > 0;

    /// <summary>One line: the seeds, how many cases were the same, different, skipped, not reproduced, failed in the harness.</summary>
    public string Summary =>
        $"generated cases: seeds {FirstSeed}..{FirstSeed + Count - 1}: {Same} same, {Differences.Count} different, {SkippedNondeterministic.Count} skipped (MSBuild's Copy not deterministic: seeds {string.Join(" ", SkippedNondeterministic)})"
        + $", {NotReproduced.Count} not reproduced (seeds {string.Join(" ", NotReproduced)}), {HarnessFailures.Count} harness failures";

    public override string ToString() =>
        Summary
        + string.Concat(Differences.Select(d => Environment.NewLine + "--- CloneCopy differs from MSBuild's Copy (reproduced on fresh trees); shrunk to:" + Environment.NewLine + d))
        + string.Concat(HarnessFailures.Select(f => Environment.NewLine + "--- harness failure (no difference of CloneCopy's): " + f))
        + string.Concat(NotReproducedDetails.Select(d => Environment.NewLine + "--- not reproduced (not counted as a difference): " + d))
        + (Differences.Count + HarnessFailures.Count > 0 ? $"{Environment.NewLine}reproduce one: CLONECOPY_GEN_SEED=<seed> CLONECOPY_GEN_CASES=1 (see docs/fidelity.md)" : string.Empty);
}
