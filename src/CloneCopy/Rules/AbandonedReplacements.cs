using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace CloneCopy;

/// <summary>
/// Removes the temporary files of CloneCopyAtomicReplace that killed processes left, without listing the folders of a
/// build that killed nothing:
/// - <see cref="RemoveAfterDeadProcesses"/>, once per build and node, by the build's first Copy whatever its settings:
///   one listing of the per-user folder of records (<see cref="ReplacementJournal"/>); for a record no process holds
///   any more, its owner's files are removed from each folder it names, then the record itself;
/// - <see cref="RemoveUnder"/>, the clean step (dotnet clean): every temporary file under the project's output and
///   intermediate folders whose owner is gone, whoever's it was (another user, a process without a record).
/// </summary>
internal static class AbandonedReplacements
{
    /// <summary>An empty record older than this is a process killed before it named a folder, not one being made now.</summary>
    private static readonly TimeSpan EmptyRecordAge = TimeSpan.FromMinutes(1);

    /// <summary>What ends each folder in a record (<see cref="ReplacementJournal"/>): paths cannot hold it.</summary>
    private static readonly char[] RecordSeparator = ['\0'];

    private static int _lookedInThisProcess;

    /// <summary>
    /// True once per process: where the host keeps nothing per build (no IBuildEngine4; MSBuild always does), the look
    /// is taken by the process's first Copy only, not by every call.
    /// </summary>
    public static bool FirstLookOfThisProcess() => System.Threading.Interlocked.Exchange(ref _lookedInThisProcess, 1) == 0;

    /// <summary>Looks at the records of other processes; removes the temporary files of those that are gone, and their records.</summary>
    public static void RemoveAfterDeadProcesses() => RemoveAfterDeadProcesses(ReplacementJournal.Folder);

    /// <summary>The look over the records in <paramref name="folder"/> (a benchmark's own).</summary>
    internal static void RemoveAfterDeadProcesses(string? folder)
    {
        if (folder is null || !ReplacementJournal.LocksTell || !Directory.Exists(folder))
        {
            return;
        }

        try
        {
            foreach (string record in Directory.EnumerateFiles(folder, "*" + ReplacementJournal.Suffix))
            {
                string name = Path.GetFileName(record);
                if (ReplacementOwner.TryParse(name.Substring(0, name.Length - ReplacementJournal.Suffix.Length), out ReplacementOwner owner) && owner != ReplacementOwner.Current)
                {
                    RemoveAfter(owner, record);
                }
            }
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // A folder of records that cannot be listed: nothing is removed, and the clean step still can.
        }
    }

    /// <summary>
    /// Removes the temporary files of owners that are gone, in <paramref name="root"/> and every folder under it (links
    /// to folders not followed), except the trees and folders already in <paramref name="cleaned"/>: in one build, an
    /// output folder several projects share is walked by the first project's clean only.
    /// </summary>
    public static void RemoveUnder(string root, CleanedFolders? cleaned)
    {
        var folders = new Stack<string>();
        folders.Push(WithoutTrailingSeparator(root)); // named as a Copy names a destination's folder
        while (folders.Count > 0)
        {
            string folder = folders.Pop();
            if (cleaned?.AddTree(folder) == false)
            {
                continue;
            }

            ReplacementFiles.RemoveAbandoned(folder, cleaned);
            try
            {
                foreach (string child in Directory.EnumerateDirectories(folder))
                {
                    if ((File.GetAttributes(child) & FileAttributes.ReparsePoint) == 0)
                    {
                        folders.Push(child);
                    }
                }
            }
            catch (Exception e) when (CopyRetries.IsIoRelated(e))
            {
                // A folder that is gone or cannot be listed holds nothing to remove.
            }
        }
    }

    /// <summary>"/out/" as "/out" ($(OutDir) ends with a separator; Path.GetDirectoryName does not); a root ("/", "C:\\") as it is.</summary>
    private static string WithoutTrailingSeparator(string folder)
    {
        string trimmed = folder.TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar);
        return trimmed.Length == 0 || string.Equals(Path.GetPathRoot(folder), folder, StringComparison.Ordinal) ? folder : trimmed;
    }

    /// <summary>
    /// Whether the process that made a temporary file is gone. Its record, where this user has it, says so exactly (its
    /// lock). Without one (another user's file, a process that could keep no record, one from before records) the process
    /// id is all there is: a running process with that id keeps the file (it may be a reused id: the file then waits for
    /// that process to end), except this process's own id with another instance, which is a dead process's.
    /// </summary>
    public static bool IsGone(ReplacementOwner owner)
    {
        if (owner == ReplacementOwner.Current)
        {
            return false;
        }

        if (owner.Instance is not null && ReplacementJournal.Folder is string folder && ReplacementJournal.LocksTell)
        {
            string record = Path.Combine(folder, owner + ReplacementJournal.Suffix);
            if (File.Exists(record))
            {
                using FileStream? held = TryTake(record);
                return held is not null;
            }
        }

        if (owner.ProcessId == ReplacementOwner.Current.ProcessId)
        {
            return owner.Instance is not null;
        }

        return !IsRunning(owner.ProcessId);
    }

    private static void RemoveAfter(ReplacementOwner owner, string record)
    {
        using FileStream? held = TryTake(record);
        if (held is null)
        {
            return; // its process runs (or another build is cleaning after it right now)
        }

        string[] folders;
        try
        {
            using var reader = new StreamReader(held, Encoding.UTF8, detectEncodingFromByteOrderMarks: false, bufferSize: 4096, leaveOpen: true); // the lock is kept until the record is gone
            folders = reader.ReadToEnd().Split(RecordSeparator, StringSplitOptions.RemoveEmptyEntries);
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            return;
        }

        if (folders.Length == 0 && DateTime.UtcNow - File.GetLastWriteTimeUtc(record) < EmptyRecordAge)
        {
            return; // being made now: its process has not taken its lock yet (Unix opens first, then locks)
        }

        bool all = true;
        foreach (string folder in folders)
        {
            all &= ReplacementFiles.RemoveFilesOf(owner, folder);
        }

        if (all)
        {
            // Deleted while still held (Unix); Windows refuses that to a handle opened without FILE_SHARE_DELETE, so again after.
            TryDelete(record);
            held.Dispose();
            TryDelete(record);
        }
    }

    /// <summary>The record opened and locked for this process alone, or null where its owner (or another cleaner) holds it.</summary>
    private static FileStream? TryTake(string record)
    {
        try
        {
            return new FileStream(record, FileMode.Open, FileAccess.Read, FileShare.None, 1);
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            return null; // held (a sharing violation), or gone
        }
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // Gone already, or still open here (Windows): tried again after the handle is closed.
        }
    }

    private static bool IsRunning(int processId)
    {
        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(processId);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false; // no process with that id
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception or NotSupportedException)
        {
            return true; // cannot tell: its files stay
        }
    }
}
