using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// Everything a copy can change in a directory tree: each entry's kind, content hash, size, last-write
/// time, permissions (Unix mode or Windows attributes), link count and link target. Two trees that copied
/// alike have equal snapshots. Links are not walked through (<see cref="TreeWalk"/>).
/// </summary>
public static class TreeSnapshot
{
    public static string Take(string root)
    {
        var lines = new List<string>();
        foreach (string path in TreeWalk.Entries(root).Order(StringComparer.Ordinal))
        {
            string relative = Path.GetRelativePath(root, path).Replace('\\', '/');
            var info = new FileInfo(path);
            if (info.LinkTarget is not null)
            {
                // Targets are absolute paths inside the tree; make them comparable across trees.
                lines.Add($"{relative} -> {info.LinkTarget.Replace(root, "<root>", StringComparison.OrdinalIgnoreCase)}");
            }
            else if (Directory.Exists(path))
            {
                lines.Add($"{relative}/");
            }
            else if (FileSystemOps.SpecialKind(path) is string special)
            {
                // A named pipe (a scenario's special source): its kind, mode and links; reading it would wait.
                lines.Add($"{relative} {special} {FileSystemOps.Permissions(path)} links={FileSystemOps.LinkCount(path)}");
            }
            else
            {
                string hash = Hash(path);
                lines.Add($"{relative} size={info.Length} sha={hash} mtime={info.LastWriteTimeUtc:O} {FileSystemOps.Permissions(path)} links={FileSystemOps.LinkCount(path)}");
            }
        }

        return string.Join(Environment.NewLine, lines);
    }

    /// <summary>The content's hash, or "unreadable" for a file the user may not read (a scenario made it so).</summary>
    private static string Hash(string path)
    {
        try
        {
            return Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(path)))[..16];
        }
        catch (UnauthorizedAccessException)
        {
            return "unreadable";
        }
    }
}
