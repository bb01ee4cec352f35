using System;
using System.IO;
using CloneCopy.Platform.Windows;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The real identity of a file (device, inode, link count) on the OS the tests run on: statx on Linux,
/// kernel32 on Windows (Wine), stat and lstat on macOS. Simulated kernels use it so that identities in tests are the truth.
/// </summary>
internal static class RealFileIds
{
    public readonly record struct Id(ulong Device, ulong Inode, uint Links, bool IsDirectory, bool IsSymbolicLink);

    /// <summary>The identity, following links or not; null when nothing is there.</summary>
    public static Id? Read(string path, bool followLinks)
    {
        if (OperatingSystem.IsWindows())
        {
            const uint OpenReparsePoint = 0x00200000;
            uint flags = Win32.FileFlagBackupSemantics | (followLinks ? 0 : OpenReparsePoint);
            if (WindowsSystemCalls.Instance.CreateFile(path, Win32.FileReadAttributes, 7, Win32.OpenExisting, flags, out SafeFileHandle handle) != 0)
            {
                return null;
            }

            using (handle)
            {
                return WindowsSystemCalls.Instance.GetFileInformation(handle, out Win32FileInformation info) == 0
                    ? new Id(info.VolumeSerialNumber, info.FileIndex, info.NumberOfLinks, (info.Attributes & 0x10) != 0, (info.Attributes & 0x400) != 0)
                    : null;
            }
        }

        if (OperatingSystem.IsMacOS())
        {
            var darwin = CloneCopy.Platform.MacOS.DarwinLibC.Instance;
            int error = followLinks ? darwin.Stat(path, out var status) : darwin.LStat(path, out status);
            return error == 0 ? new Id(status.Device, status.Inode, status.LinkCount, status.IsDirectory, status.IsSymbolicLink) : null;
        }

        int flagsLinux = followLinks ? 0 : CloneCopy.Platform.Linux.LibC.AT_SYMLINK_NOFOLLOW;
        return CloneCopy.Platform.Linux.LibC.Statx(CloneCopy.Platform.Linux.LibC.AT_FDCWD, path, flagsLinux, CloneCopy.Platform.Linux.LibC.STATX_BASIC_STATS, out var stat) == 0
            ? new Id(stat.Device, stat.Inode, stat.LinkCount, stat.IsDirectory, stat.IsSymbolicLink)
            : null;
    }

    /// <summary>
    /// When the file last changed in any way (data, size, attributes, a rename): Linux's ctime (statx), Windows'
    /// ChangeTime (FileAllInformation); its last write time where neither can be read.
    /// </summary>
    public static unsafe DateTime ChangeTime(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            if (WindowsSystemCalls.Instance.CreateFile(path, Win32.FileReadAttributes, 7, Win32.OpenExisting, Win32.FileFlagBackupSemantics, out SafeFileHandle handle) == 0)
            {
                using (handle)
                {
                    if (WindowsSystemCalls.Instance.QueryAllInformation(handle, out Win32FileAllInformation all) == 0 && all.Times.ChangeTime > 0)
                    {
                        return DateTime.FromFileTimeUtc(all.Times.ChangeTime);
                    }
                }
            }

            return File.GetLastWriteTimeUtc(path);
        }

        if (CloneCopy.Platform.Linux.LibC.Statx(CloneCopy.Platform.Linux.LibC.AT_FDCWD, path, 0, CloneCopy.Platform.Linux.LibC.STATX_BASIC_STATS, out var stat) != 0)
        {
            return File.GetLastWriteTimeUtc(path);
        }

        // struct statx: stx_ctime, a statx_timestamp (seconds, then nanoseconds), at byte 96.
        byte* raw = (byte*)&stat;
        long seconds = *(long*)(raw + 96);
        uint nanoseconds = *(uint*)(raw + 104);
        return DateTime.UnixEpoch.AddTicks((seconds * TimeSpan.TicksPerSecond) + (nanoseconds / 100));
    }

    /// <summary>The path with every symbolic link in it resolved, as GetFinalPathNameByHandle would give it.</summary>
    public static string FinalPath(string path)
    {
        string full = Path.GetFullPath(path);
        string root = Path.GetPathRoot(full)!;
        string current = root;
        foreach (string part in full.Substring(root.Length).Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries))
        {
            current = Path.Combine(current, part);
            for (int hop = 0; hop < 40 && new FileInfo(current).LinkTarget is string target; hop++)
            {
                current = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(current)!, target));
            }
        }

        return current;
    }
}
