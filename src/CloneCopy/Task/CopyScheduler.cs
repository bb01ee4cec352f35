using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;

namespace CloneCopy;

/// <summary>
/// Runs the pairs, several destinations at once, while every pair for one destination runs in order on
/// one thread: a later source for the same destination must win, as it does in MSBuild. Within such a
/// group the same source twice in a row is copied once and reported twice.
/// </summary>
internal static class CopyScheduler
{
    /// <summary>How many destinations the calling thread copies before judging whether copies are slow.</summary>
    private const int GroupsBeforeDeciding = 16;

    /// <summary>
    /// Above this average per destination, copies are data copies worth overlapping on several threads
    /// (a clone on XFS or btrfs measured 15-30 µs here; a small data copy on ext4, 50-90 µs and more).
    /// Settable only so tests can make "fast" independent of the test machine's load.
    /// </summary>
    internal static double SlowGroupMicroseconds { get; set; } = 60;

    public static PairOutcome[] Run(IReadOnlyList<CopyPair> pairs, int parallelism, CopyEnvironment environment, Func<CopyPair, PairOutcome> copy, CancellationToken cancellation)
    {
        var outcomes = new PairOutcome[pairs.Count];
        List<List<CopyPair>> groups = GroupByDestination(pairs, environment);

        if (parallelism <= 1 || groups.Count <= 1)
        {
            foreach (List<CopyPair> group in groups)
            {
                RunGroup(group, outcomes, copy, cancellation);
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
                var clock = System.Diagnostics.Stopwatch.StartNew();
                int done = 0;
                for (int g = Interlocked.Increment(ref nextGroup); g < groups.Count; g = Interlocked.Increment(ref nextGroup))
                {
                    RunGroup(groups[g], outcomes, copy, cancellation);
                    done++;
                    if (mayStartHelpers && helpersStarted == 0 && done >= GroupsBeforeDeciding
                        && clock.Elapsed.TotalMilliseconds * 1000 / done > SlowGroupMicroseconds && g + 1 < groups.Count)
                    {
                        helpersStarted = StartHelpers(Math.Min(parallelism, groups.Count - g) - 1);
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
        helpersDone.Wait();
        if (unexpected is not null)
        {
            throw new AggregateException(unexpected);
        }

        return outcomes;
    }

    private static void RunGroup(List<CopyPair> group, PairOutcome[] outcomes, Func<CopyPair, PairOutcome> copy, CancellationToken cancellation)
    {
        string? lastCopiedSource = null;
        foreach (CopyPair pair in group)
        {
            if (cancellation.IsCancellationRequested)
            {
                outcomes[pair.Index] = PairOutcome.Failed;
                continue;
            }

            string sourceKey = pair.SourceFullPath ?? pair.SourceSpec;
            if (lastCopiedSource is not null && string.Equals(lastCopiedSource, sourceKey, PathComparison.Comparison))
            {
                outcomes[pair.Index] = new PairOutcome(PairResult.Duplicate);
                continue;
            }

            PairOutcome outcome = copy(pair);
            outcomes[pair.Index] = outcome;
            lastCopiedSource = outcome.Succeeded ? sourceKey : null;
        }
    }

    private static List<List<CopyPair>> GroupByDestination(IReadOnlyList<CopyPair> pairs, CopyEnvironment environment)
    {
        var groups = new List<List<CopyPair>>();
        var byDestination = new Dictionary<string, List<CopyPair>>(PathComparison.Comparer);
        foreach (CopyPair pair in pairs)
        {
            pair.SourceFullPath = FullPathOrNull(pair.SourceSpec, environment);
            pair.DestinationFullPath = FullPathOrNull(pair.DestinationSpec, environment);
            string key = pair.DestinationFullPath ?? pair.DestinationSpec;
            if (!byDestination.TryGetValue(key, out List<CopyPair>? group))
            {
                group = [];
                byDestination.Add(key, group);
                groups.Add(group);
            }

            group.Add(pair);
        }

        return groups;
    }

    /// <summary>A bad path (empty, invalid characters) is reported by the pair itself; here it only needs a key.</summary>
    private static string? FullPathOrNull(string spec, CopyEnvironment environment)
    {
        try
        {
            return environment.FullPathOf(spec);
        }
        catch (Exception e) when (e is ArgumentException or NotSupportedException or PathTooLongException or System.Security.SecurityException)
        {
            return null;
        }
    }
}
