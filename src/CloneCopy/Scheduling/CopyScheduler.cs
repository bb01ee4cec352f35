using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading;

namespace CloneCopy;

/// <summary>
/// Runs the pairs the way MSBuild's Copy runs them, by its two loops. With more than one pair and
/// parallelism other than 1 (its parallel loop): pairs are grouped by the destination as spelled, several
/// groups run at once, each group in order on one thread (a later source for the same destination must win),
/// and a pair whose source is spelled as the previous pair's of its group is not copied again but reported
/// as copied, even when that previous copy failed. Otherwise (its single-threaded loop): every pair in input
/// order, and a pair is skipped only when the last successful copy to its destination came from the same
/// source. "Spelled" means MSBuild's absolute path of the item (the current directory joined to it, not
/// normalized): "a.txt" and "./a.txt" are two sources, and both are copied.
/// </summary>
internal static class CopyScheduler
{
    /// <summary>How many destinations the calling thread copies before judging whether copies are slow.</summary>
    internal const int GroupsBeforeDeciding = 16;

    /// <summary>
    /// Above this average per destination, copies are data copies worth overlapping on several threads
    /// (a clone on XFS or btrfs measured 15-30 µs here; a small data copy on ext4, 50-90 µs and more).
    /// </summary>
    internal const double SlowGroupMicroseconds = 60;

    /// <summary>
    /// The clock the calling thread times its first copies with, in microseconds. Settable only so that a test can
    /// say how long its made-up copies took (they advance its clock), and so see "fast" and "slow" decided the same
    /// however loaded the test machine is.
    /// </summary>
    internal static Func<double> Microseconds { get; set; } = static () => Stopwatch.GetTimestamp() * 1e6 / Stopwatch.Frequency;

    /// <summary>
    /// Where every destination so far was only looked at (up to date, the same file, a repeated source), the rest of
    /// the call is lookups, which do not contend on a folder's locks as clones do: at more than this much work left on
    /// the calling thread, one helper per core shares it, as MSBuild's Copy shares its own up-to-date tests.
    /// </summary>
    internal static double LookupMicrosecondsWorthHelpers { get; set; } = 1000;

    public static PairOutcome[] Run(IReadOnlyList<CopyPair> pairs, int parallelism, CopyEnvironment environment, Func<CopyPair, PairOutcome> copy, CancellationToken cancellation)
    {
        var outcomes = new PairOutcome[pairs.Count];
        bool msbuildParallelLoop = parallelism != 1 && pairs.Count != 1;
        // Before MSBuild 18.4 (dotnet/msbuild #12914) its loops told a repeated pair by the item specs as given
        // ("a.txt" and a SourceFolders file's full path are two sources); from 18.4 by their absolute paths.
        bool byAbsolutePath = RunningMSBuild.Current.Has(RunningMSBuild.DuplicatesByAbsolutePath);
        List<List<CopyPair>> groups = msbuildParallelLoop ? GroupByDestinationSpec(pairs) : [WithPaths(pairs, environment)];
        Action<List<CopyPair>> runGroup = msbuildParallelLoop
            ? group => RunGroupSkippingRepeatedSource(group, outcomes, environment, copy, byAbsolutePath, cancellation)
            : group => RunInOrderSkippingCopiedPairs(group, outcomes, copy, byAbsolutePath, cancellation);

        if (groups.Count <= 1)
        {
            foreach (List<CopyPair> group in groups)
            {
                runGroup(group);
            }

            return outcomes;
        }

        // The calling thread starts alone and takes helpers from the shared pool only when copies turn out
        // to be slow. A clone costs tens of microseconds of kernel metadata work, and several threads cloning
        // at once mostly wait on the filesystem's locks (measured on XFS: slower than one thread); a data
        // copy costs far more, and overlapping those pays (measured on ext4: three times faster).
        int nextGroup = -1;
        int helpersStarted = 0;
        Exception? unexpected = null;
        using var helpersDone = new CountdownEvent(1);
        void RunGroups(bool mayStartHelpers)
        {
            try
            {
                double started = Microseconds();
                int done = 0;
                bool onlyLooked = true;
                for (int g = Interlocked.Increment(ref nextGroup); g < groups.Count; g = Interlocked.Increment(ref nextGroup))
                {
                    runGroup(groups[g]);
                    done++;
                    if (!mayStartHelpers || helpersStarted != 0)
                    {
                        continue;
                    }

                    onlyLooked = onlyLooked && NothingWritten(groups[g], outcomes);
                    if (done >= GroupsBeforeDeciding && g + 1 < groups.Count)
                    {
                        double microsecondsPerGroup = (Microseconds() - started) / done;
                        if (microsecondsPerGroup > SlowGroupMicroseconds)
                        {
                            helpersStarted = StartHelpers(Math.Min(parallelism, groups.Count - g) - 1);
                        }
                        else if (onlyLooked && microsecondsPerGroup * (groups.Count - g - 1) > LookupMicrosecondsWorthHelpers)
                        {
                            helpersStarted = StartHelpers(Math.Min(Math.Min(parallelism, Environment.ProcessorCount), groups.Count - g) - 1);
                        }
                    }
                }
            }
            catch (Exception e)
            {
                // Keep the first unexpected failure for the caller: a worker thread must not die with it.
                Interlocked.CompareExchange(ref unexpected, e, null);
            }
        }

        int StartHelpers(int count)
        {
            for (int i = 0; i < count; i++)
            {
                helpersDone.AddCount();
                CopyWorkerPool.Shared.Post(() =>
                {
                    RunGroups(mayStartHelpers: false);
                    helpersDone.Signal();
                });
            }

            return Math.Max(count, 1);
        }

        RunGroups(mayStartHelpers: true);
        helpersDone.Signal();
        helpersDone.Wait(CancellationToken.None); // every helper finishes its group, cancelled or not, before the outcomes are read
        if (unexpected is not null)
        {
            throw new AggregateException(unexpected);
        }

        return outcomes;
    }

    private static bool NothingWritten(List<CopyPair> group, PairOutcome[] outcomes)
    {
        foreach (CopyPair pair in group)
        {
            if (outcomes[pair.Index].Result is not (PairResult.UpToDate or PairResult.SamePath or PairResult.Duplicate))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>MSBuild's parallel loop for one destination: a source spelled as the previous pair's is not copied again.</summary>
    /// <remarks>Each pair's paths are computed here, by the thread that runs its group, not in one pass before the groups start.</remarks>
    private static void RunGroupSkippingRepeatedSource(List<CopyPair> group, PairOutcome[] outcomes, CopyEnvironment environment, Func<CopyPair, PairOutcome> copy, bool byAbsolutePath, CancellationToken cancellation)
    {
        string? previousSource = null;
        foreach (CopyPair pair in group)
        {
            ComputePaths(pair, environment);
            if (cancellation.IsCancellationRequested)
            {
                outcomes[pair.Index] = PairOutcome.Failed;
                continue;
            }

            if (pair.SourceAbsolute is null || pair.DestinationAbsolute is null)
            {
                // MSBuild reports the bad path and goes on without remembering this pair.
                outcomes[pair.Index] = copy(pair);
                continue;
            }

            string source = byAbsolutePath ? pair.SourceAbsolute : pair.SourceSpec;
            outcomes[pair.Index] = previousSource is not null && MSBuildPlatformRules.PathComparer.Equals(previousSource, source)
                ? new PairOutcome(PairResult.Duplicate)
                : copy(pair);
            previousSource = source;
        }
    }

    /// <summary>MSBuild's single-threaded loop: skipped only when the last successful copy to this destination came from this source.</summary>
    private static void RunInOrderSkippingCopiedPairs(List<CopyPair> pairs, PairOutcome[] outcomes, Func<CopyPair, PairOutcome> copy, bool byAbsolutePath, CancellationToken cancellation)
    {
        var copiedFrom = new Dictionary<string, string>(MSBuildPlatformRules.PathComparer);
        foreach (CopyPair pair in pairs)
        {
            if (cancellation.IsCancellationRequested)
            {
                outcomes[pair.Index] = PairOutcome.Failed;
                continue;
            }

            if (pair.SourceAbsolute is null || pair.DestinationAbsolute is null)
            {
                outcomes[pair.Index] = copy(pair);
                continue;
            }

            string source = byAbsolutePath ? pair.SourceAbsolute : pair.SourceSpec;
            string destination = byAbsolutePath ? pair.DestinationAbsolute : pair.DestinationSpec;
            if (copiedFrom.TryGetValue(destination, out string? from) && string.Equals(from, source, StringComparison.Ordinal))
            {
                outcomes[pair.Index] = new PairOutcome(PairResult.Duplicate);
                continue;
            }

            PairOutcome outcome = copy(pair);
            outcomes[pair.Index] = outcome;
            if (outcome.Succeeded)
            {
                copiedFrom[destination] = source;
            }
        }
    }

    /// <summary>MSBuild's parallel loop groups by the destination item as spelled, compared as the OS compares paths.</summary>
    private static List<List<CopyPair>> GroupByDestinationSpec(IReadOnlyList<CopyPair> pairs)
    {
        var groups = new List<List<CopyPair>>();
        var byDestination = new Dictionary<string, List<CopyPair>>(MSBuildPlatformRules.PathComparer);
        foreach (CopyPair pair in pairs)
        {
            if (!byDestination.TryGetValue(pair.DestinationSpec, out List<CopyPair>? group))
            {
                group = [];
                byDestination.Add(pair.DestinationSpec, group);
                groups.Add(group);
            }

            group.Add(pair);
        }

        return groups;
    }

    /// <summary>Computes each pair's paths once: the normalized full paths, and MSBuild's un-normalized absolute ones.</summary>
    private static List<CopyPair> WithPaths(IReadOnlyList<CopyPair> pairs, CopyEnvironment environment)
    {
        var all = new List<CopyPair>(pairs.Count);
        foreach (CopyPair pair in pairs)
        {
            ComputePaths(pair, environment);
            all.Add(pair);
        }

        return all;
    }

    private static void ComputePaths(CopyPair pair, CopyEnvironment environment)
    {
        pair.SourceAbsolute = AbsoluteOrNull(pair.SourceSpec, environment);
        pair.DestinationAbsolute = AbsoluteOrNull(pair.DestinationSpec, environment);
        pair.SourceFullPath = FullPathOrNull(pair.SourceSpec, pair.SourceAbsolute, environment);
        pair.DestinationFullPath = FullPathOrNull(pair.DestinationSpec, pair.DestinationAbsolute, environment);
    }

    /// <summary>The project directory joined to the spec, not normalized (MSBuild's AbsolutePath); null for an empty or invalid spec.</summary>
    private static string? AbsoluteOrNull(string spec, CopyEnvironment environment)
    {
        if (spec.Length == 0)
        {
            return null;
        }

        try
        {
            return environment.AbsolutePathOf(spec);
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    /// <summary>A bad path (empty, invalid characters) is reported by the pair itself; here it only needs a key.</summary>
    private static string? FullPathOrNull(string spec, string? absolute, CopyEnvironment environment)
    {
        try
        {
            return absolute is null ? environment.FullPathOf(spec) : environment.FullPathOf(spec, absolute);
        }
        catch (Exception e) when (e is ArgumentException or NotSupportedException or PathTooLongException or System.Security.SecurityException)
        {
            return null;
        }
    }
}
