using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace CloneCopy.BuildCompare;

/// <summary>
/// The files and folders under the repository's root at one moment. Cleaning takes away what appeared since,
/// and nothing else: the "clean" state between builds is the state after restore, and the end state is the
/// repository as it was before the tool ran. New files in bin and obj folders are deleted; any other new file
/// is moved aside, never deleted, since a repository's outputs can be anywhere but so can a file the user
/// saves while the builds run.
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

    /// <summary>
    /// Takes away every file and folder that appeared since this snapshot. What lies inside a folder named bin or
    /// obj is a build's output and is deleted; anything else new is moved, by its path under the root, into
    /// <paramref name="setAside"/> and never deleted: builds rarely write there, but a user who saves a file in the
    /// repository while the builds run must find it again. Returns the files set aside.
    /// </summary>
    public IReadOnlyList<string> RemoveNew(string setAside)
    {
        var fresh = Enumerate(Root, Excluded).Where(e => !_entries.Contains(e.Path)).ToList();
        var setAsideFiles = new List<string>();
        foreach (var file in fresh.Where(e => !e.IsDirectory))
        {
            if (IsBuildOutput(file.Path))
            {
                File.Delete(file.Path);
                continue;
            }

            string target = Path.Combine(setAside, Path.GetRelativePath(Root, file.Path));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Move(file.Path, target, overwrite: true); // copies and deletes when setAside is on another volume
            setAsideFiles.Add(target);
        }

        // Deepest first; a new folder is empty now, unless something appeared in it meanwhile, which stays.
        foreach (var folder in fresh.Where(e => e.IsDirectory).OrderByDescending(e => e.Path.Length))
        {
            if (IsBuildOutput(folder.Path + Path.DirectorySeparatorChar))
            {
                Directory.Delete(folder.Path, recursive: true);
            }
            else if (Directory.Exists(folder.Path) && !Directory.EnumerateFileSystemEntries(folder.Path).Any())
            {
                Directory.Delete(folder.Path);
            }
        }

        return setAsideFiles;
    }

    /// <summary>Inside a folder named bin or obj under the root.</summary>
    private bool IsBuildOutput(string path)
    {
        string[] parts = Path.GetRelativePath(Root, path).Split(Path.DirectorySeparatorChar);
        return parts.Take(parts.Length - 1).Any(part => part is "bin" or "obj");
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
