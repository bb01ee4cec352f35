using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;

namespace CloneCopy.BuildCompare;

/// <summary>A build's output files by path relative to the repository, each with the SHA-256 of its bytes.</summary>
public sealed class OutputFingerprint
{
    private readonly SortedDictionary<string, string> _hashes;

    private OutputFingerprint(SortedDictionary<string, string> hashes) => _hashes = hashes;

    public int Count => _hashes.Count;

    public static OutputFingerprint Of(string root, IEnumerable<string> files)
    {
        var hashes = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (string file in files)
        {
            using var stream = File.OpenRead(file);
            hashes[Path.GetRelativePath(root, file).Replace('\\', '/')] = Convert.ToHexString(SHA256.HashData(stream));
        }

        return new OutputFingerprint(hashes);
    }

    /// <summary>Paths only one side has, and paths both have with different bytes ("obj/x.cache: bytes differ").</summary>
    public IReadOnlyList<string> Differences(OutputFingerprint other)
    {
        var differences = new List<string>();
        differences.AddRange(_hashes.Keys.Except(other._hashes.Keys).Select(p => $"{p}: only in the first"));
        differences.AddRange(other._hashes.Keys.Except(_hashes.Keys).Select(p => $"{p}: only in the second"));
        differences.AddRange(_hashes.Where(h => other._hashes.TryGetValue(h.Key, out string? o) && o != h.Value).Select(h => $"{h.Key}: bytes differ"));
        differences.Sort(StringComparer.Ordinal);
        return differences;
    }
}
