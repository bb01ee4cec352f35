using System;
using System.IO;
using CloneCopy.Platform.Linux;
using Microsoft.Build.Framework;

namespace CloneCopy.Benchmarks;

/// <summary>
/// The floor: the least a clone of each file can cost, single-threaded, through CloneCopy's own libc bindings and
/// nothing else: open the source, read its times, create the destination, FICLONE (on a filesystem that cannot clone,
/// copy_file_range until the end of the file), set the times, close both. No rules, no messages, no checks: the
/// benchmark's other rows are measured against it to show how far each is from what the kernel charges.
/// </summary>
public static unsafe class MinimalCloneLoop
{
    public static void Run(ITaskItem[] sources, string destination)
    {
        Directory.CreateDirectory(destination);
        foreach (ITaskItem item in sources)
        {
            CloneOrCopy(item.ItemSpec, Path.Combine(destination, Path.GetFileName(item.ItemSpec)));
        }
    }

    /// <summary>
    /// The loop over every file of <paramref name="from"/> matching <paramref name="pattern"/> (in the order the
    /// directory lists them, as MSBuild expands a wildcard), into <paramref name="to"/>, in milliseconds: what
    /// scripts/cold-node-bench.sh sets beside the Copy task's time in a fresh process. The loop's code is made ready
    /// first on a scratch file outside both folders, so only the files' system calls and the loop are timed.
    /// </summary>
    public static double TimeFresh(string from, string to, string pattern)
    {
        string[] files = Directory.GetFiles(from, pattern);
        string scratch = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(to))!, ".floor-warm-up");
        Directory.CreateDirectory(scratch);
        CloneOrCopy(files[0], Path.Combine(scratch, "warm-up"));
        Directory.Delete(scratch, recursive: true);

        var clock = System.Diagnostics.Stopwatch.StartNew();
        Directory.CreateDirectory(to);
        foreach (string file in files)
        {
            CloneOrCopy(file, Path.Combine(to, Path.GetFileName(file)));
        }

        return clock.Elapsed.TotalMilliseconds;
    }

    private static void CloneOrCopy(string sourcePath, string destinationPath)
    {
        int source = Check(LibC.Open(sourcePath, LibC.O_RDONLY | LibC.O_CLOEXEC, 0), sourcePath);
        try
        {
            Check(LibC.Statx(source, string.Empty, LibC.AT_EMPTY_PATH, LibC.STATX_BASIC_STATS, out LibC.StatxBuffer stat), sourcePath);
            int destination = Check(LibC.Open(destinationPath, LibC.O_WRONLY | LibC.O_CREAT | LibC.O_TRUNC | LibC.O_CLOEXEC, stat.Mode & LibC.PermissionBits), destinationPath);
            try
            {
                if (LibC.Ioctl(destination, LibC.FICLONE, source) != 0)
                {
                    while (LibC.CopyFileRange(source, null, destination, null, 1 << 30, 0) is var copied && copied != 0)
                    {
                        Check((int)Math.Sign(copied), destinationPath);
                    }
                }

                LibC.Timespec* times = stackalloc LibC.Timespec[2];
                times[0] = new LibC.Timespec { Seconds = stat.AccessTime.Seconds, Nanoseconds = stat.AccessTime.Nanoseconds };
                times[1] = new LibC.Timespec { Seconds = stat.ModificationTime.Seconds, Nanoseconds = stat.ModificationTime.Nanoseconds };
                Check(LibC.FUtimens(destination, times), destinationPath);
            }
            finally
            {
                LibC.Close(destination);
            }
        }
        finally
        {
            LibC.Close(source);
        }
    }

    private static int Check(int result, string path) =>
        result >= 0 ? result : throw new IOException($"{path}: errno {System.Runtime.InteropServices.Marshal.GetLastPInvokeError()}");
}
