using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// Everything a copy can change in a directory tree: each entry's kind, content hash, size, last-write
/// time, mode, link count and link target. Two trees that copied alike have equal snapshots.
/// </summary>
public static class TreeSnapshot
{
    public static string Take(string root)
    {
        var lines = new List<string>();
        foreach (string path in Directory.EnumerateFileSystemEntries(root, "*", new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = 0 }).Order(StringComparer.Ordinal))
        {
            string relative = Path.GetRelativePath(root, path);
            var info = new FileInfo(path);
            if (info.LinkTarget is not null)
            {
                // Targets are absolute paths inside the tree; make them comparable across trees.
                lines.Add($"{relative} -> {info.LinkTarget.Replace(root, "<root>", StringComparison.Ordinal)}");
            }
            else if (Directory.Exists(path))
            {
                lines.Add($"{relative}/");
            }
            else
            {
                string hash = Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(path)))[..16];
                long links = LinkCount(path);
                lines.Add($"{relative} size={info.Length} sha={hash} mtime={info.LastWriteTimeUtc:O} mode={File.GetUnixFileMode(path)} links={links}");
            }
        }

        return string.Join(Environment.NewLine, lines);
    }

    public static long LinkCount(string path)
    {
        if (CloneCopy.Platform.Linux.LibC.Statx(CloneCopy.Platform.Linux.LibC.AT_FDCWD, path, 0, CloneCopy.Platform.Linux.LibC.STATX_BASIC_STATS, out var stat) != 0)
        {
            throw new IOException($"statx failed on {path}");
        }

        return stat.LinkCount;
    }
}
