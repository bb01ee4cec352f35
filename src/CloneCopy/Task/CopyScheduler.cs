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
    public static PairOutcome[] Run(IReadOnlyList<CopyPair> pairs, int parallelism, Func<CopyPair, PairOutcome> copy, CancellationToken cancellation)
    {
        var outcomes = new PairOutcome[pairs.Count];
        List<List<CopyPair>> groups = GroupByDestination(pairs);

        if (parallelism <= 1 || groups.Count <= 1)
        {
            foreach (List<CopyPair> group in groups)
            {
                RunGroup(group, outcomes, copy, cancellation);
            }

            return outcomes;
        }

        // Runners pull the next group until none is left. The calling thread is one of them (no hand-off
        // for the first files, and progress even when the shared pool is busy with another task's copies);
        // the others come from the pool, which caps the copy threads of the whole process.
        int runners = Math.Min(parallelism, groups.Count);
        int nextGroup = -1;
        Exception? unexpected = null;
        void RunGroups()
        {
            try
            {
                for (int g = Interlocked.Increment(ref nextGroup); g < groups.Count; g = Interlocked.Increment(ref nextGroup))
                {
                    RunGroup(groups[g], outcomes, copy, cancellation);
                }
            }
            catch (Exception e)
            {
                // Keep the first unexpected failure for the caller: a worker thread must not die with it.
                Interlocked.CompareExchange(ref unexpected, e, null);
            }
        }

        using var remaining = new CountdownEvent(runners - 1);
        for (int i = 1; i < runners; i++)
        {
            CopyWorkerPool.Shared.Post(() =>
            {
                RunGroups();
                remaining.Signal();
            });
        }

        RunGroups();
        remaining.Wait();
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

    private static List<List<CopyPair>> GroupByDestination(IReadOnlyList<CopyPair> pairs)
    {
        var groups = new List<List<CopyPair>>();
        var byDestination = new Dictionary<string, List<CopyPair>>(PathComparison.Comparer);
        foreach (CopyPair pair in pairs)
        {
            pair.SourceFullPath = FullPathOrNull(pair.SourceSpec);
            pair.DestinationFullPath = FullPathOrNull(pair.DestinationSpec);
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
    private static string? FullPathOrNull(string spec)
    {
        try
        {
            return Path.GetFullPath(spec);
        }
        catch (Exception e) when (e is ArgumentException or NotSupportedException or PathTooLongException or System.Security.SecurityException)
        {
            return null;
        }
    }
}
