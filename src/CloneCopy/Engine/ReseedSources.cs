using System;
using System.Collections.Concurrent;
using System.IO;
using System.Security.Cryptography;

namespace CloneCopy.Engine;

/// <summary>
/// After a link-limit fallback (ReFS: 8175 references per block), the fresh full copy has blocks with one
/// reference each, so later clones of the same source can read from it instead. That copy is a build output
/// other steps may rewrite, in place and with the same length and timestamp (deterministic builds), so
/// size and time prove nothing: before each use, the copy's content is hashed and compared with the hash
/// taken when it was made, and the source must still have the length and timestamp it had then. A copy
/// that fails either check is forgotten and the original source is cloned (or copied) again.
/// The check reads the copy once per use; it costs less than the full copy it replaces, and a wrong byte in
/// an output costs more than both.
/// </summary>
internal sealed class ReseedSources
{
    private readonly ConcurrentDictionary<string, Seed> _seeds = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Remembers <paramref name="copyPath"/>, just copied from <paramref name="source"/>, as a source for later clones.</summary>
    public void Remember(string sourcePath, FileInfo source, string copyPath)
    {
        try
        {
            _seeds[sourcePath] = new Seed(copyPath, source.Length, source.LastWriteTimeUtc, HashOf(copyPath));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The copy cannot be read back: it cannot be proven identical later either, so it is never used.
        }
    }

    /// <summary>The path later clones of <paramref name="sourcePath"/> read from: the proven copy, else the source itself.</summary>
    public string CloneSourceFor(string sourcePath, FileInfo source)
    {
        if (!_seeds.TryGetValue(sourcePath, out Seed? seed))
        {
            return source.FullName;
        }

        if (seed.SourceLength == source.Length && seed.SourceLastWrite == source.LastWriteTimeUtc && IsUnchanged(seed))
        {
            return seed.CopyPath;
        }

        _seeds.TryRemove(sourcePath, out _);
        return source.FullName;
    }

    private static bool IsUnchanged(Seed seed)
    {
        try
        {
            var copy = new FileInfo(seed.CopyPath);
            return copy.Exists && copy.Length == seed.SourceLength && SameBytes(HashOf(seed.CopyPath), seed.Hash);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    private static bool SameBytes(byte[] a, byte[] b)
    {
        if (a.Length != b.Length)
        {
            return false;
        }

        for (int i = 0; i < a.Length; i++)
        {
            if (a[i] != b[i])
            {
                return false;
            }
        }

        return true;
    }

    private static byte[] HashOf(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete, 81920, FileOptions.SequentialScan);
        using var sha = SHA256.Create();
        return sha.ComputeHash(stream);
    }

    private sealed class Seed
    {
        public Seed(string copyPath, long sourceLength, DateTime sourceLastWrite, byte[] hash)
        {
            CopyPath = copyPath;
            SourceLength = sourceLength;
            SourceLastWrite = sourceLastWrite;
            Hash = hash;
        }

        public string CopyPath { get; }

        public long SourceLength { get; }

        public DateTime SourceLastWrite { get; }

        public byte[] Hash { get; }
    }
}
