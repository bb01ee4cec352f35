using System;
using System.ComponentModel;
using System.IO;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// What tests need of a filesystem beyond System.IO, on Linux and on Windows (Wine): hard links, link
/// counts, and how a file's permissions read (Unix mode, or Windows attributes).
/// </summary>
public static partial class FileSystemOps
{
    public static void HardLink(string path, string existing)
    {
        if (OperatingSystem.IsWindows())
        {
            if (!CreateHardLinkW(path, existing, IntPtr.Zero))
            {
                throw new Win32Exception(Marshal.GetLastWin32Error(), $"CreateHardLink {path} -> {existing}");
            }

            return;
        }

        if (UnixLink(existing, path) != 0)
        {
            throw new Win32Exception(Marshal.GetLastPInvokeError(), $"link {existing} -> {path}");
        }
    }

    /// <summary>Number of hard links to the file (the entry itself, not what a symbolic link leads to).</summary>
    public static long LinkCount(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            using SafeFileHandle handle = OpenForAttributes(path);
            return GetFileInformationByHandle(handle, out ByHandleFileInformation info)
                ? info.NumberOfLinks
                : throw new Win32Exception(Marshal.GetLastWin32Error(), $"GetFileInformationByHandle {path}");
        }

        if (CloneCopy.Platform.Linux.LibC.Statx(CloneCopy.Platform.Linux.LibC.AT_FDCWD, path, CloneCopy.Platform.Linux.LibC.AT_SYMLINK_NOFOLLOW, CloneCopy.Platform.Linux.LibC.STATX_BASIC_STATS, out var stat) != 0)
        {
            throw new IOException($"statx failed on {path}");
        }

        return stat.LinkCount;
    }

    /// <summary>"mode=rw-r--r--" on Unix; "attributes=ReadOnly, Archive" on Windows.</summary>
    public static string Permissions(string path) => OperatingSystem.IsWindows()
        ? $"attributes={File.GetAttributes(path)}"
        : $"mode={File.GetUnixFileMode(path)}";

    private static SafeFileHandle OpenForAttributes(string path)
    {
        const uint FileReadAttributes = 0x80;
        const uint ShareAll = 0x7;
        const uint OpenExisting = 3;
        const uint BackupSemanticsOpenReparsePoint = 0x02000000 | 0x00200000;
        SafeFileHandle handle = CreateFileW(path, FileReadAttributes, ShareAll, IntPtr.Zero, OpenExisting, BackupSemanticsOpenReparsePoint, IntPtr.Zero);
        return handle.IsInvalid ? throw new Win32Exception(Marshal.GetLastWin32Error(), $"CreateFile {path}") : handle;
    }

    [StructLayout(LayoutKind.Sequential, Pack = 4)] // FILETIMEs are two DWORDs: 4-byte aligned
    private struct ByHandleFileInformation
    {
        public uint FileAttributes;
        public long CreationTime;
        public long LastAccessTime;
        public long LastWriteTime;
        public uint VolumeSerialNumber;
        public uint FileSizeHigh;
        public uint FileSizeLow;
        public uint NumberOfLinks;
        public uint FileIndexHigh;
        public uint FileIndexLow;
    }

    [LibraryImport("libc", EntryPoint = "link", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int UnixLink(string existing, string path);

    [LibraryImport("kernel32.dll", SetLastError = true, StringMarshalling = StringMarshalling.Utf16)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool CreateHardLinkW(string fileName, string existingFileName, IntPtr securityAttributes);

    [LibraryImport("kernel32.dll", SetLastError = true, StringMarshalling = StringMarshalling.Utf16)]
    private static partial SafeFileHandle CreateFileW(string fileName, uint access, uint share, IntPtr security, uint creation, uint flags, IntPtr template);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool GetFileInformationByHandle(SafeFileHandle file, out ByHandleFileInformation information);
}
