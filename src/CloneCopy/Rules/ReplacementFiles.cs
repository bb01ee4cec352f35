using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Threading;

namespace CloneCopy;

/// <summary>
/// The temporary files of CloneCopyAtomicReplace: a replacement is written beside its destination (same folder, so
/// the same volume: the same clone, and a rename that is one step) under a hidden name that says whose it is,
/// <c>.clonecopy-&lt;process id&gt;-&lt;number&gt;.tmp</c>. A Copy that fails removes its own; one killed between
/// writing it and renaming it leaves it, and the first replacement into that folder in a later build (once per folder,
/// build and node: <see cref="CleanedFolders"/>) removes every such file whose process is no longer running. One still being written by a live
/// process (another project's Copy in a parallel build) is left alone.
/// </summary>
internal static class ReplacementFiles
{
    private const string Prefix = ".clonecopy-";
    private const string Suffix = ".tmp";

    private static readonly int OurProcessId = CurrentProcessId();

    /// <summary>Numbers the names; starts at a random point so that a reused process id does not meet an old name.</summary>
    private static long _next = new Random().Next() & 0xFFFFFF;


    /// <summary>A new name in <paramref name="folder"/>, never used before by this process.</summary>
    public static string NewPath(string folder) =>
        Path.Combine(folder, Prefix + OurProcessId.ToString(CultureInfo.InvariantCulture) + "-" + Interlocked.Increment(ref _next).ToString("x", CultureInfo.InvariantCulture) + Suffix);

    /// <summary>Removes, once per folder in <paramref name="cleaned"/>, the temporary files that dead processes left in <paramref name="folder"/>.</summary>
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
                if (ProcessOf(Path.GetFileName(path)) is int owner && owner != OurProcessId && !IsRunning(owner))
                {
                    RemoveQuietly(path);
                }
            }
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // A folder that cannot be listed keeps what it holds; the copy itself says what is wrong with it.
        }
    }

    /// <summary>Removes a temporary file this process made; one that is already gone, or cannot go, is left to the next cleaning.</summary>
    public static void RemoveQuietly(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // Left for RemoveAbandoned in a later process.
        }
    }

    private static int? ProcessOf(string fileName)
    {
        if (!fileName.StartsWith(Prefix, StringComparison.Ordinal) || !fileName.EndsWith(Suffix, StringComparison.Ordinal))
        {
            return null;
        }

        // The digits of the process id, up to the dash before the number.
        long id = 0;
        int i = Prefix.Length;
        for (; i < fileName.Length && fileName[i] >= '0' && fileName[i] <= '9' && id <= int.MaxValue; i++)
        {
            id = (id * 10) + (fileName[i] - '0');
        }

        return i > Prefix.Length && i < fileName.Length && fileName[i] == '-' && id <= int.MaxValue ? (int)id : null;
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
            return true; // cannot tell: leave its files
        }
    }

    private static int CurrentProcessId()
    {
#if NET
        return Environment.ProcessId;
#else
        using var process = System.Diagnostics.Process.GetCurrentProcess();
        return process.Id;
#endif
    }
}

/// <summary>The folders whose abandoned replacement files were looked for: one set per build on a node (registered with the build), else per Copy call.</summary>
internal sealed class CleanedFolders
{
    private readonly HashSet<string> _folders = new(StringComparer.Ordinal);

    /// <summary>True the first time a folder is named.</summary>
    public bool Add(string folder)
    {
        lock (_folders)
        {
            return _folders.Add(folder);
        }
    }
}
