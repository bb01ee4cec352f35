using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;

namespace CloneCopy;

/// <summary>
/// This process's record of the folders it makes CloneCopyAtomicReplace's temporary files in: one file per process in a
/// per-user folder (<see cref="Folder"/>), named after the process (<see cref="ReplacementOwner"/>), holding each folder
/// once, written before the first temporary file goes into that folder. The process keeps the file open with a lock
/// for as long as it runs (FileShare.None: a share mode on Windows, an exclusive flock on Unix), which the system
/// releases however the process ends, so whoever can take the lock knows its owner is gone. When the process exits
/// with no temporary file outstanding its record is deleted; when it is killed the record stays, and the next build's
/// first Copy (<see cref="AbandonedReplacements"/>) removes the dead owner's temporary files from the folders it names.
/// </summary>
internal static class ReplacementJournal
{
    /// <summary>The ending of a record's name: "&lt;process id&gt;-&lt;instance&gt;.journal".</summary>
    public const string Suffix = ".journal";

    private static readonly object Lock = new();
    private static readonly HashSet<string> Recorded = new(StringComparer.Ordinal);
    private static FileStream? _journal;
    private static bool _unavailable;
    private static int _outstanding;

    /// <summary>
    /// The per-user folder of records (.NET's LocalApplicationData: %LOCALAPPDATA% on Windows, $XDG_DATA_HOME or
    /// ~/.local/share on Linux, ~/Library/Application Support on macOS, then CloneCopy/replacing); null where the user
    /// has none (no home folder). Per user, so that one user's records cannot name folders for another's builds to clean.
    /// </summary>
    public static string? Folder { get; } = FindFolder();

    /// <summary>
    /// Whether a record's lock tells a running process from a dead one: on Windows always (share modes); on Unix unless
    /// .NET's advisory locks are switched off (System.IO.DisableFileLocking, DOTNET_SYSTEM_IO_DISABLEFILELOCKING), when
    /// no record is kept, and none is taken for a dead process's. A filesystem where the lock is silently not taken is
    /// found when the record is made (<see cref="LockHolds"/>): then too the process keeps none.
    /// </summary>
    public static bool LocksTell { get; } = MSBuildPlatformRules.IsWindows || AtomicReplaceHooks.LockSwitchUnseen || !DotNetLocksSwitchedOff();

    /// <summary>Records <paramref name="folder"/> (once per process) before a temporary file is made in it, and counts that file as outstanding.</summary>
    public static void Began(string folder)
    {
        Interlocked.Increment(ref _outstanding);
        lock (Lock)
        {
            if (_unavailable || !Recorded.Add(folder))
            {
                return;
            }

            FileStream? journal = _journal ??= Open();
            if (journal is null)
            {
                return;
            }

            try
            {
                // One write(2) (the stream is unbuffered), so a kill after it finds the folder recorded. Paths cannot hold a
                // NUL; a line break they can.
                byte[] line = Encoding.UTF8.GetBytes(folder + "\0");
                journal.Write(line, 0, line.Length);
                journal.Flush();
            }
            catch (Exception e) when (CopyRetries.IsIoRelated(e))
            {
                // A full disk: the folder is not recorded; a temporary file left there is the clean step's to find.
            }
        }
    }

    /// <summary>A temporary file counted by <see cref="Began"/> is gone (renamed over its destination, or removed).</summary>
    public static void Ended() => Interlocked.Decrement(ref _outstanding);

    private static FileStream? Open()
    {
        if (Folder is null || !LocksTell)
        {
            _unavailable = true;
            return null;
        }

        try
        {
            CreatePrivateFolder(Folder);

            // Created new, unbuffered, and locked: no other process can read it while this one lives.
            string path = Path.Combine(Folder, ReplacementOwner.Current + Suffix);
            var journal = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1);
            if (!LockHolds(path))
            {
                // The lock is not there (see LockHolds): another process would take this record for a dead one's and
                // remove this one's temporary files while it writes them. No record, as where locks are switched off.
                journal.Dispose();
                DeleteQuietly(path);
                _unavailable = true;
                return null;
            }

            AppDomain.CurrentDomain.ProcessExit += (_, _) => Close();
            return journal;
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // No record for this process: its temporary files are still removed by a replacing Copy into their folder and
            // by the clean step, not by the next build's look.
            _unavailable = true;
            return null;
        }
    }

    /// <summary>
    /// Whether the record just created at <paramref name="path"/> is locked: a second open of it, from this process,
    /// that asks for it alone must be refused. On Unix .NET takes the lock with flock after opening and ignores every
    /// failure but "held by another" (EWOULDBLOCK): where the filesystem cannot lock (NFS without a lock manager:
    /// ENOLCK; some FUSE and network homes: ENOTSUP) the open succeeds without a lock, and so would another process's
    /// take of it. Two opens of one file in one process are two open files to flock, so the second is refused where
    /// locking works.
    /// </summary>
    private static bool LockHolds(string path)
    {
        try
        {
            using var again = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.None, 1);
            return false;
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            return true; // refused: held
        }
    }

    /// <summary>At a normal exit: the record goes, unless a temporary file may still be there (a Copy stopped half-way by the exit).</summary>
    private static void Close()
    {
        lock (Lock)
        {
            if (_journal is not { } journal)
            {
                return;
            }

            _journal = null;
            _unavailable = true;
            bool outstanding = Volatile.Read(ref _outstanding) != 0;
            if (!outstanding)
            {
                DeleteQuietly(journal.Name); // on Unix while still locked; Windows refuses a file open without FILE_SHARE_DELETE
            }

            journal.Dispose();
            if (!outstanding)
            {
                DeleteQuietly(journal.Name);
            }
        }
    }

    private static void DeleteQuietly(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // Already gone, or Windows' share mode: tried again after the handle is closed.
        }
    }

    private static void CreatePrivateFolder(string folder)
    {
#if NET
        if (!MSBuildPlatformRules.IsWindows)
        {
#pragma warning disable CA1416 // Unix only: the folder is the user's alone (Windows' LocalAppData already is)
            Directory.CreateDirectory(folder, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
#pragma warning restore CA1416
            return;
        }
#endif
        Directory.CreateDirectory(folder);
    }

    private static bool DotNetLocksSwitchedOff()
    {
        if (AppContext.TryGetSwitch("System.IO.DisableFileLocking", out bool disabled))
        {
            return disabled;
        }

        string? variable = CopyEnvironment.Process.Variable("DOTNET_SYSTEM_IO_DISABLEFILELOCKING");
        return variable is not null && (variable == "1" || variable.Equals("true", StringComparison.OrdinalIgnoreCase));
    }

    private static string? FindFolder()
    {
        string local;
        try
        {
            local = Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData, Environment.SpecialFolderOption.DoNotVerify);
        }
        catch (Exception e) when (e is PlatformNotSupportedException or ArgumentException or System.Security.SecurityException)
        {
            return null;
        }

        return string.IsNullOrEmpty(local) ? null : Path.Combine(local, "CloneCopy", "replacing");
    }
}
