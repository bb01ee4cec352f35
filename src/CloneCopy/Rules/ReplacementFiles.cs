using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Threading;

namespace CloneCopy;

/// <summary>
/// The temporary files of CloneCopyAtomicReplace: a replacement is written beside its destination (same folder, so
/// the same volume: the same clone, and a rename that is one step) under a name that starts with a dot (hidden on Unix;
/// on Windows a file CloneCopy clones itself is also created Hidden and Temporary, until its metadata is set) and says
/// whose it is, <c>.clonecopy-&lt;process id&gt;-&lt;instance&gt;-&lt;number&gt;.tmp</c> (<see cref="ReplacementOwner"/>).
/// Before the first one goes into a folder the process records that folder (<see cref="ReplacementJournal"/>). A Copy
/// that fails removes its own; one killed between writing it and renaming it leaves it, for whichever comes first:
/// the next build's first Copy (<see cref="AbandonedReplacements.RemoveAfterDeadProcesses"/>, from the record), the
/// first replacement into that folder in a later build (once per folder, build and node: <see cref="CleanedFolders"/>),
/// or the clean step. None removes a file whose process still runs (another project's Copy in a parallel build).
/// </summary>
internal static class ReplacementFiles
{
    private const string Prefix = ".clonecopy-";
    private const string Suffix = ".tmp";

    /// <summary>Numbers the names within this process.</summary>
    private static long _next;

    /// <summary>A new name in <paramref name="folder"/>, never used before by any process; the folder is recorded first (<see cref="ReplacementJournal.Began"/>: <see cref="Finished"/> must follow).</summary>
    public static string NewPath(string folder)
    {
        ReplacementJournal.Began(folder);
        return Path.Combine(folder, Prefix + ReplacementOwner.Current + "-" + Interlocked.Increment(ref _next).ToString("x", CultureInfo.InvariantCulture) + Suffix);
    }

    /// <summary>The temporary file of <see cref="NewPath"/> is gone: renamed over its destination, or removed.</summary>
    public static void Finished() => ReplacementJournal.Ended();

    /// <summary>Whether <paramref name="path"/> names a temporary file of CloneCopyAtomicReplace (its own or another process's).</summary>
    public static bool IsReplacement(string path)
    {
        string name = Path.GetFileName(path);
        return name.StartsWith(Prefix, StringComparison.Ordinal) && name.EndsWith(Suffix, StringComparison.Ordinal);
    }

    /// <summary>Removes, once per folder in <paramref name="cleaned"/>, the temporary files that processes now gone left in <paramref name="folder"/>.</summary>
    public static void RemoveAbandoned(string folder, CleanedFolders? cleaned)
    {
        if (cleaned?.Add(folder) == false)
        {
            return;
        }

        try
        {
            foreach (string path in Directory.EnumerateFiles(folder, Prefix + "*" + Suffix))
            {
                if (OwnerOf(Path.GetFileName(path)) is ReplacementOwner owner && AbandonedReplacements.IsGone(owner))
                {
                    RemoveLeftover(path);
                }
            }
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // A folder that cannot be listed keeps what it holds; the copy itself says what is wrong with it.
        }
    }

    /// <summary>Removes <paramref name="owner"/>'s temporary files from <paramref name="folder"/>; false where the folder could not be listed (it may still hold some).</summary>
    public static bool RemoveFilesOf(ReplacementOwner owner, string folder)
    {
        try
        {
            foreach (string path in Directory.EnumerateFiles(folder, Prefix + owner + "-*" + Suffix))
            {
                RemoveLeftover(path);
            }

            return true;
        }
        catch (DirectoryNotFoundException)
        {
            return true; // the folder went, and what it held with it
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            return false;
        }
    }

    /// <summary>Removes a temporary file this process made: true when it is gone (or was never made); one that cannot go is left to the next build's look, from this process's record.</summary>
    public static bool RemoveQuietly(string path)
    {
        try
        {
            File.Delete(path);
            return true;
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            return false;
        }
    }

    /// <summary>A dead process's file: on Windows one killed before its read-only attribute was cleared refuses File.Delete until it is.</summary>
    private static void RemoveLeftover(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (UnauthorizedAccessException)
        {
            try
            {
                File.SetAttributes(path, FileAttributes.Normal);
                File.Delete(path);
            }
            catch (Exception e) when (CopyRetries.IsIoRelated(e))
            {
                // Cannot be removed by this user: left.
            }
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // Gone already (another build removed it), or cannot be removed: left.
        }
    }

    /// <summary>
    /// The owner of a name made by <see cref="NewPath"/> (or, from CloneCopy before instances, <c>.clonecopy-&lt;id&gt;-&lt;number&gt;.tmp</c>):
    /// the number is lowercase hexadecimal, so a user's own <c>.clonecopy-7-notes.tmp</c> is nobody's and stays.
    /// </summary>
    private static ReplacementOwner? OwnerOf(string fileName) =>
        fileName.StartsWith(Prefix, StringComparison.Ordinal) && fileName.EndsWith(Suffix, StringComparison.Ordinal)
            && ReplacementOwner.TryRead(fileName, Prefix.Length, out ReplacementOwner owner, out int number)
            && IsNumber(fileName, number, fileName.Length - Suffix.Length) ? owner : null;

    /// <summary>Whether <paramref name="text"/> holds only lowercase hexadecimal digits (at least one) from <paramref name="start"/> to <paramref name="end"/>, as <see cref="NewPath"/> writes its number.</summary>
    private static bool IsNumber(string text, int start, int end)
    {
        if (end <= start)
        {
            return false;
        }

        for (int i = start; i < end; i++)
        {
            if (!ReplacementOwner.IsLowercaseHex(text[i]))
            {
                return false;
            }
        }

        return true;
    }
}

/// <summary>
/// The folders whose abandoned replacement files were looked for: one set per build on a node (registered with the
/// build, shared by Copy and the clean step), else per Copy call or clean. A folder's own files and its whole tree are
/// counted apart: a replacing Copy lists one folder's files, the clean step walks every folder under its own.
/// </summary>
internal sealed class CleanedFolders
{
    private readonly HashSet<string> _folders = new(StringComparer.Ordinal);
    private readonly HashSet<string> _trees = new(StringComparer.Ordinal);

    /// <summary>True the first time a folder is named.</summary>
    public bool Add(string folder)
    {
        lock (_folders)
        {
            return _folders.Add(folder);
        }
    }

    /// <summary>True the first time the clean step walks a folder and every folder under it (projects sharing an output folder name it each).</summary>
    public bool AddTree(string folder)
    {
        lock (_trees)
        {
            return _trees.Add(folder);
        }
    }
}
