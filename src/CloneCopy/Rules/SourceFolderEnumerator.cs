using System;
using System.Collections.Generic;
using System.IO;

namespace CloneCopy;

/// <summary>
/// Lists the files under a SourceFolders item, in the order MSBuild's Copy lists them. Keeping the order keeps
/// DestinationFiles and CopiedFiles identical to the built-in task's. Two orders, by the running MSBuild
/// (<see cref="RunningMSBuild.ListsSourceFoldersBreadthFirst"/>): depth first (observed up to 18.10: for each
/// directory, its subdirectories' files first, subdirectories taken in reverse listing order, then the
/// directory's own files in listing order), or breadth first (18.11 on, under change wave 18.11: the folder's
/// own files in listing order, then each subdirectory's the same way, level by level, subdirectories in
/// listing order, as .NET's recursive directory enumeration walks). A folder that does not exist contributes
/// nothing, as in MSBuild.
/// Two more of MSBuild's enumeration rules (its FileMatcher): a directory that is a symbolic link to one of
/// its own ancestors is not entered (a loop would otherwise be walked until paths grow too long), and a
/// directory the user may not list contributes nothing instead of failing the copy.
/// </summary>
internal static class SourceFolderEnumerator
{
    /// <summary>Yields (full path, path relative to the folder): MSBuild names a folder's files by their full paths.</summary>
    public static IEnumerable<(string Path, string Relative)> Enumerate(string folder, bool breadthFirst)
    {
        if (!Directory.Exists(folder))
        {
            yield break;
        }

        foreach (var entry in breadthFirst ? WalkByLevel(folder) : Walk(folder, string.Empty))
        {
            yield return entry;
        }
    }

    /// <summary>Each directory's own files, directories taken first come, first served (a queue, as .NET's enumerator keeps).</summary>
    private static IEnumerable<(string Path, string Relative)> WalkByLevel(string folder)
    {
        // Two queues of strings, not one of tuples: no generic instantiation over a value type to compile.
        var directories = new Queue<string>();
        var relatives = new Queue<string>();
        directories.Enqueue(folder);
        relatives.Enqueue(string.Empty);
        while (directories.Count > 0)
        {
            string directory = directories.Dequeue();
            string relative = relatives.Dequeue();
            if (IsLinkToAncestor(directory))
            {
                continue;
            }

            foreach (string file in Accessible(() => Directory.GetFiles(directory)))
            {
                yield return (file, Path.Combine(relative, Path.GetFileName(file)));
            }

            foreach (string subdirectory in Accessible(() => Directory.GetDirectories(directory)))
            {
                directories.Enqueue(subdirectory);
                relatives.Enqueue(Path.Combine(relative, Path.GetFileName(subdirectory)));
            }
        }
    }

    private static IEnumerable<(string Path, string Relative)> Walk(string directory, string relative)
    {
        if (IsLinkToAncestor(directory))
        {
            yield break;
        }

        string[] subdirectories = Accessible(() => Directory.GetDirectories(directory));
        for (int i = subdirectories.Length - 1; i >= 0; i--)
        {
            string name = Path.GetFileName(subdirectories[i]);
            foreach (var entry in Walk(subdirectories[i], Path.Combine(relative, name)))
            {
                yield return entry;
            }
        }

        foreach (string file in Accessible(() => Directory.GetFiles(directory)))
        {
            yield return (file, Path.Combine(relative, Path.GetFileName(file)));
        }
    }

    /// <summary>The listing, or nothing where the user may not read the directory (MSBuild skips it silently).</summary>
    private static string[] Accessible(Func<string[]> list)
    {
        try
        {
            return list();
        }
        catch (Exception e) when (e is UnauthorizedAccessException or System.Security.SecurityException)
        {
            return [];
        }
    }

    /// <summary>
    /// True when the directory is a link whose final target contains it (MSBuild's test: the directory's path
    /// starts with the target's path, compared as the OS compares paths). Links elsewhere are followed.
    /// </summary>
    private static bool IsLinkToAncestor(string directory)
    {
#if NET
        FileSystemInfo? target;
        try
        {
            target = Directory.ResolveLinkTarget(directory, returnFinalTarget: true);
        }
        catch (Exception e) when (e is IOException or ArgumentException or UnauthorizedAccessException)
        {
            return false;
        }

        return target is not null && IsInside(directory, target.FullName);
#else
        // MSBuild on .NET Framework makes no such check either.
        return false;
#endif
    }

#if NET
    private static bool IsInside(string child, string parent)
    {
        if (parent.Length == 0)
        {
            return true;
        }

        if (!child.StartsWith(parent, MSBuildPlatformRules.PathComparison))
        {
            return false;
        }

        return IsSeparator(parent[parent.Length - 1]) || (child.Length > parent.Length && IsSeparator(child[parent.Length]));
    }

    private static bool IsSeparator(char c) => c == '/' || c == '\\';
#endif
}
