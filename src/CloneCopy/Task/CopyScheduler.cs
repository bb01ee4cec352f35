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

        using var remaining = new CountdownEvent(groups.Count);
        Exception? unexpected = null;
        foreach (List<CopyPair> group in groups)
        {
            CopyWorkerPool.Shared.Post(() =>
            {
                try
                {
                    RunGroup(group, outcomes, copy, cancellation);
                }
                catch (Exception e)
                {
                    // Keep the first unexpected failure for the caller: a worker thread must not die with it.
                    Interlocked.CompareExchange(ref unexpected, e, null);
                }
                finally
                {
                    remaining.Signal();
                }
            });
        }

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

            string sourceKey = FullPathOrSpec(pair.SourceSpec);
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
            string key = FullPathOrSpec(pair.DestinationSpec);
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
    private static string FullPathOrSpec(string spec)
    {
        try
        {
            return Path.GetFullPath(spec);
        }
        catch (Exception e) when (e is ArgumentException or NotSupportedException or PathTooLongException or System.Security.SecurityException)
        {
            return spec;
        }
    }
}
