using System;
using System.ComponentModel;
using System.IO;
using System.Runtime.InteropServices;
using CloneCopy.Platform.Linux;
using CloneCopy.Platform.Unix;
using CloneCopy.Platform.Windows;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// What tests need of a filesystem beyond System.IO, on Linux and on Windows (Wine): hard links, link
/// counts, and how a file's permissions read (Unix mode, or Windows attributes). Through CloneCopy's own
/// system-call declarations, which the tests of those declarations cover.
/// </summary>
public static class FileSystemOps
{
    public static void HardLink(string path, string existing)
    {
        if (OperatingSystem.IsWindows())
        {
            int error = WindowsSystemCalls.Instance.CreateHardLink(path, existing);
            if (error != 0)
            {
                throw new Win32Exception(error, $"CreateHardLink {path} -> {existing}");
            }

            return;
        }

        if (UnixLibC.Link(existing, path) != 0)
        {
            throw new Win32Exception(Marshal.GetLastPInvokeError(), $"link {existing} -> {path}");
        }
    }

    /// <summary>Number of hard links to the file (the entry itself, not what a symbolic link leads to).</summary>
    public static long LinkCount(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            uint links = new WindowsFileIdentity(WindowsSystemCalls.Instance).LinkCount(path);
            return links != 0 ? links : throw new IOException($"no file information for {path}");
        }

        if (OperatingSystem.IsMacOS())
        {
            return CloneCopy.Tests.Windows.RealFileIds.Read(path, followLinks: false)?.Links ?? throw new IOException($"lstat failed on {path}");
        }

        if (LibC.Statx(LibC.AT_FDCWD, path, LibC.AT_SYMLINK_NOFOLLOW, LibC.STATX_BASIC_STATS, out var stat) != 0)
        {
            throw new IOException($"statx failed on {path}");
        }

        return stat.LinkCount;
    }

    /// <summary>
    /// "fifo", "character device", "block device" or "socket" for an entry that is none of file, folder and
    /// link (Linux); null otherwise. Such an entry must not be read to compare it: a pipe would wait for a writer.
    /// Special sources are made on Linux only (scenarios and generated cases), so elsewhere there are none to tell.
    /// </summary>
    public static string? SpecialKind(string path)
    {
        if (!OperatingSystem.IsLinux() || LibC.Statx(LibC.AT_FDCWD, path, LibC.AT_SYMLINK_NOFOLLOW, LibC.STATX_TYPE, out var stat) != 0)
        {
            return null;
        }

        return (stat.Mode & LibC.S_IFMT) switch
        {
            0x1000 => "fifo",
            0x2000 => "character device",
            0x6000 => "block device",
            0xC000 => "socket",
            _ => null,
        };
    }

    /// <summary>"mode=rw-r--r--" on Unix; "attributes=ReadOnly, Archive" on Windows.</summary>
    public static string Permissions(string path) => OperatingSystem.IsWindows()
        ? $"attributes={File.GetAttributes(path)}"
        : $"mode={File.GetUnixFileMode(path)}";
}
