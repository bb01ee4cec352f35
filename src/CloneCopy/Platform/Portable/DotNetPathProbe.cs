using System;
using System.IO;
using System.Runtime.InteropServices;

namespace CloneCopy.Platform;

/// <summary>What the per-file rules need to know about a path, from one look at it.</summary>
internal readonly struct PathStatus
{
    public PathStatus(bool exists, bool isDirectory)
    {
        Exists = exists;
        IsDirectory = isDirectory;
    }

    /// <summary>True for a file, a directory, or a link (even a dangling one: it must be deleted, not written through).</summary>
    public bool Exists { get; }

    /// <summary>True for a directory or a link to one.</summary>
    public bool IsDirectory { get; }

    /// <summary>True when the path itself is a symbolic link (or a junction, on Windows).</summary>
    public bool IsLink { get; init; }

    /// <summary>Hard links to the entry itself (1 for an ordinary file); 0 where unknown or not read yet.</summary>
    public uint LinkCount { get; init; }

    /// <summary>Device and inode of the file the path leads to; both 0 where unknown (dangling link) or not read yet (Windows).</summary>
    public ulong Device { get; init; }

    public ulong Inode { get; init; }

    public bool HasIdentity => Inode != 0;

    /// <summary>
    /// What .NET's FileInfo.IsReadOnly would say for the current user, where the probe could tell without
    /// another system call; null where it could not (then ask FileInfo).
    /// </summary>
    public bool? IsReadOnly { get; init; }

    /// <summary>
    /// The probed path, where the identity is read only on demand (Windows: opening a file costs more than
    /// the attribute query, and most destinations do not exist). Null where the probe already has it.
    /// </summary>
    public string? FullPath { get; init; }
}

/// <summary>
/// Answers "does it exist, is it a directory, which file is it" with as few system calls as the platform
/// allows, with the answers .NET's File.Exists / Directory.Exists would give. This runs for the source and
/// the destination of every pair of every copy. Linux: statx (two for a symbolic link). macOS: lstat (and
/// stat for a link). Windows: one attribute query; the file's identity is read later, only if needed
/// (<see cref="FileIdentity"/>).
/// </summary>
internal static class PathProbe
{
    private static readonly bool IsWindows = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);
#if NET
    private static readonly bool UseStatx = RuntimeInformation.IsOSPlatform(OSPlatform.Linux) && Linux.LinuxFileTransfer.IsUsable();
    private static readonly bool IsMacOS = RuntimeInformation.IsOSPlatform(OSPlatform.OSX);
    private const uint Wanted = Linux.LibC.STATX_TYPE | Linux.LibC.STATX_MODE | Linux.LibC.STATX_NLINK | Linux.LibC.STATX_UID | Linux.LibC.STATX_INO;
#endif

    public static PathStatus Get(string fullPath)
    {
        if (IsWindows)
        {
            return GetOnWindows(fullPath);
        }
#if NET
        if (UseStatx)
        {
            if (Linux.LibC.Statx(Linux.LibC.AT_FDCWD, fullPath, Linux.LibC.AT_SYMLINK_NOFOLLOW, Wanted, out var entry) == 0)
            {
                if (!entry.IsSymbolicLink)
                {
                    return new PathStatus(true, entry.IsDirectory) { LinkCount = entry.LinkCount, Device = entry.Device, Inode = entry.Inode, IsReadOnly = Linux.UnixReadOnly.AsDotNetSeesIt(entry.Mode, entry.Uid) };
                }

                // A link: it exists; it is a directory, and has an identity, through what it leads to.
                bool resolved = Linux.LibC.Statx(Linux.LibC.AT_FDCWD, fullPath, 0, Wanted, out var target) == 0;
                return new PathStatus(true, resolved && target.IsDirectory)
                {
                    IsLink = true,
                    LinkCount = entry.LinkCount,
                    Device = resolved ? target.Device : 0,
                    Inode = resolved ? target.Inode : 0,
                };
            }

            int errno = Marshal.GetLastPInvokeError();
            if (errno is Linux.LinuxErrors.ENOENT or Linux.LinuxErrors.ENOTDIR)
            {
                return new PathStatus(false, false);
            }
        }

        if (IsMacOS && MacOS.MacPathProbe.Get(fullPath, MacOS.GuardedDarwinCalls.Instance) is PathStatus onMac)
        {
            return onMac;
        }
#endif
        if (Directory.Exists(fullPath))
        {
            return new PathStatus(true, true);
        }

        bool isLink = IsLink(new FileInfo(fullPath));
        return new PathStatus(File.Exists(fullPath) || isLink, false) { IsLink = isLink };
    }

    /// <summary>
    /// One GetFileAttributesEx (a FileInfo's first look), which does not follow links on Windows; a link's
    /// target is asked for only when the entry is a reparse point, since that costs an open.
    /// </summary>
    internal static PathStatus GetOnWindows(string fullPath)
    {
        FileAttributes attributes;
        var info = new FileInfo(fullPath);
        try
        {
            attributes = info.Attributes; // (FileAttributes)(-1) when nothing is there
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return new PathStatus(false, false); // File.Exists and Directory.Exists say false here too
        }

        if ((int)attributes == -1)
        {
            return new PathStatus(false, false);
        }

        bool isLink = (attributes & FileAttributes.ReparsePoint) != 0 && IsLink(info);
        return new PathStatus(true, (attributes & FileAttributes.Directory) != 0)
        {
            IsLink = isLink,
            FullPath = fullPath,
            IsReadOnly = (attributes & FileAttributes.ReadOnly) != 0, // FileInfo.IsReadOnly on Windows
        };
    }

    /// <summary>True for a symbolic link or junction (not for other reparse points: deduplicated or cloud files).</summary>
    private static bool IsLink(FileInfo info)
    {
#if NET
        try
        {
            return info.LinkTarget is not null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
#else
        int attributes = (int)info.Attributes; // -1 when nothing is there
        return attributes != -1 && (attributes & (int)FileAttributes.ReparsePoint) != 0;
#endif
    }
}
