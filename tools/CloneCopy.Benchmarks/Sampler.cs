using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;

namespace CloneCopy.Benchmarks;

/// <summary>Median, minimum and maximum of repeated timings, in microseconds.</summary>
public sealed record Stats(double Median, double Min, double Max, int Count)
{
    public static Stats Of(IReadOnlyList<double> samples)
    {
        var sorted = samples.Order().ToArray();
        double median = sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[sorted.Length / 2 - 1] + sorted[sorted.Length / 2]) / 2;
        return new Stats(median, sorted[0], sorted[^1], sorted.Length);
    }

    public override string ToString() => $"{Format(Median)} ({Format(Min)}–{Format(Max)})";

    public static string Format(double microseconds) => microseconds switch
    {
        >= 1_000_000 => $"{microseconds / 1_000_000:0.00} s",
        >= 1_000 => $"{microseconds / 1_000:0.00} ms",
        _ => $"{microseconds:0.0} µs",
    };
}

/// <summary>
/// Runs competing candidates in one process, on the same inputs, interleaved: each round runs every
/// candidate once, in a freshly shuffled order (seeded, so runs repeat), so drift in the machine's load and
/// the after-effects of one candidate (writeback of the pages it dirtied) fall on all of them alike. The
/// first rounds are warm-up and are dropped.
/// </summary>
public static class Sampler
{
    public static Dictionary<string, Stats> Compare(int warmupRounds, int rounds, IReadOnlyList<(string Name, Action<int> Prepare, Action<int> Run, Action<int> Cleanup)> candidates)
    {
        var samples = candidates.ToDictionary(c => c.Name, _ => new List<double>());
        var random = new Random(12345);
        for (int round = 0; round < warmupRounds + rounds; round++)
        {
            foreach (var candidate in candidates.OrderBy(_ => random.Next()).ToList())
            {
                candidate.Prepare(round);
                long start = Stopwatch.GetTimestamp();
                candidate.Run(round);
                double elapsed = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
                candidate.Cleanup(round);
                if (round >= warmupRounds)
                {
                    samples[candidate.Name].Add(elapsed);
                }
            }
        }

        return samples.ToDictionary(kv => kv.Key, kv => Stats.Of(kv.Value));
    }
}
