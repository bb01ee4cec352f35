using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace CloneCopy.BuildCompare;

/// <summary>
/// The files and folders under the repository's root at one moment. Cleaning deletes what appeared since,
/// and nothing else: the "clean" state between builds is the state after restore, and the end state is the
/// repository as it was before the tool ran. Never a rule like "delete bin/": a repository's outputs can be
/// anywhere, and a user's own files must never be touched.
/// </summary>
public sealed class RepositorySnapshot
{
    private readonly HashSet<string> _entries;

    private RepositorySnapshot(string root, string? excluded, HashSet<string> entries)
    {
        Root = root;
        Excluded = excluded;
        _entries = entries;
    }

    public string Root { get; }

    /// <summary>A folder under the root that belongs to the tool (its output), never scanned nor cleaned.</summary>
    public string? Excluded { get; }

    public int Count => _entries.Count;

    public static RepositorySnapshot Take(string root, string? excluded = null) =>
        new(root, excluded, new HashSet<string>(Enumerate(root, excluded).Select(e => e.Path), StringComparer.Ordinal));

    /// <summary>The files that appeared since this snapshot, as full paths.</summary>
    public IReadOnlyList<string> NewFiles() =>
        Enumerate(Root, Excluded).Where(e => !e.IsDirectory && !_entries.Contains(e.Path)).Select(e => e.Path).ToList();

    /// <summary>Deletes every file and folder that appeared since this snapshot.</summary>
    public void DeleteNew()
    {
        var fresh = Enumerate(Root, Excluded).Where(e => !_entries.Contains(e.Path)).ToList();
        foreach (var file in fresh.Where(e => !e.IsDirectory))
        {
            File.Delete(file.Path);
        }

        // Deepest first, so that a folder is empty when its turn comes.
        foreach (var folder in fresh.Where(e => e.IsDirectory).OrderByDescending(e => e.Path.Length))
        {
            Directory.Delete(folder.Path, recursive: true);
        }
    }

    /// <summary>
    /// Folders that hold build outputs from a build before this tool ran: a bin folder with anything in it, or an
    /// obj folder with a subfolder (restore alone writes only files there). Comparing clean builds needs neither.
    /// </summary>
    public static IReadOnlyList<string> EarlierBuildOutputs(string root, string? excluded) =>
        Enumerate(root, excluded)
            .Where(e => e.IsDirectory)
            .Where(e => Path.GetFileName(e.Path) switch
            {
                "bin" => Directory.EnumerateFileSystemEntries(e.Path).Any(),
                "obj" => Directory.EnumerateDirectories(e.Path).Any(),
                _ => false,
            })
            .Select(e => e.Path)
            .ToList();

    private static IEnumerable<(string Path, bool IsDirectory)> Enumerate(string root, string? excluded)
    {
        var pending = new Stack<string>();
        pending.Push(root);
        while (pending.Count > 0)
        {
            string directory = pending.Pop();
            foreach (var entry in new DirectoryInfo(directory).EnumerateFileSystemInfos())
            {
                bool isDirectory = entry is DirectoryInfo && entry.LinkTarget is null;
                if (isDirectory && (entry.Name == ".git" || string.Equals(entry.FullName, excluded, StringComparison.Ordinal)))
                {
                    continue;
                }

                yield return (entry.FullName, isDirectory);
                if (isDirectory)
                {
                    pending.Push(entry.FullName);
                }
            }
        }
    }
}
