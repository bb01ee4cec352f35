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

    /// <summary>True when the path itself is a symbolic link.</summary>
    public bool IsLink { get; init; }

    /// <summary>Hard links to the entry itself (1 for an ordinary file); 0 where unknown.</summary>
    public uint LinkCount { get; init; }

    /// <summary>Device and inode of the file the path leads to; both 0 where unknown (not Linux, dangling link).</summary>
    public ulong Device { get; init; }

    public ulong Inode { get; init; }

    public bool HasIdentity => Inode != 0;

    /// <summary>
    /// What .NET's FileInfo.IsReadOnly would say for the current user, where the probe could tell without
    /// another system call; null where it could not (then ask FileInfo).
    /// </summary>
    public bool? IsReadOnly { get; init; }
}

/// <summary>
/// Answers "does it exist, is it a directory, which file is it" with one system call where it can (statx
/// on Linux; two for a symbolic link), with the answers .NET's File.Exists / Directory.Exists would give.
/// This runs for the source and the destination of every pair of every copy.
/// </summary>
internal static class PathProbe
{
#if NET
    private static readonly bool UseStatx = RuntimeInformation.IsOSPlatform(OSPlatform.Linux) && Linux.LinuxFileTransfer.IsUsable();
    private const uint Wanted = Linux.LibC.STATX_TYPE | Linux.LibC.STATX_MODE | Linux.LibC.STATX_NLINK | Linux.LibC.STATX_UID | Linux.LibC.STATX_INO;
#endif

    public static PathStatus Get(string fullPath)
    {
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
#endif
        if (Directory.Exists(fullPath))
        {
            return new PathStatus(true, true);
        }

        bool isLink = IsLink(fullPath);
        return new PathStatus(File.Exists(fullPath) || isLink, false) { IsLink = isLink };
    }

    private static bool IsLink(string fullPath)
    {
#if NET
        return new FileInfo(fullPath).LinkTarget is not null;
#else
        int attributes = (int)new FileInfo(fullPath).Attributes; // -1 when nothing is there
        return attributes != -1 && (attributes & (int)FileAttributes.ReparsePoint) != 0;
#endif
    }
}
