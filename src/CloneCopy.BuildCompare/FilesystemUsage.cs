using System;
using System.IO;
using System.Runtime.InteropServices;

namespace CloneCopy.BuildCompare;

/// <summary>
/// The filesystem's own count of used bytes (statvfs on Unix, GetDiskFreeSpaceEx on Windows, through DriveInfo),
/// after flushing dirty data so delayed allocations are counted. A clone's shared blocks are counted once by the
/// filesystem itself, which is why this, and not the sum of file sizes (or `du`, which counts each file's blocks
/// even where two files share them), is what the outputs cost on disk. Its one weakness: anything else writing
/// to the same filesystem during the build is counted too.
/// </summary>
public static partial class FilesystemUsage
{
    public static long UsedBytes(string path)
    {
        Flush();
        var drive = new DriveInfo(path);
        return drive.TotalSize - drive.TotalFreeSpace;
    }

    /// <summary>What is mounted there ("xfs", "ext4", "NTFS"), for the report.</summary>
    public static string Format(string path)
    {
        try
        {
            return new DriveInfo(path).DriveFormat;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return "unknown";
        }
    }

    private static void Flush()
    {
        if (!OperatingSystem.IsWindows())
        {
            Sync();
        }
    }

    [LibraryImport("libc", EntryPoint = "sync")]
    private static partial void Sync();
}
