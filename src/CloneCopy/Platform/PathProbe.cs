using System.IO;
using System.Runtime.InteropServices;

namespace CloneCopy.Platform;

/// <summary>What the per-file rules need to know about a path before copying.</summary>
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
}

/// <summary>
/// Answers "does it exist, is it a directory" with one system call where it can (statx on Linux), with
/// the answers .NET's File.Exists / Directory.Exists would give. This runs for every pair of every copy.
/// </summary>
internal static class PathProbe
{
#if NET
    private static readonly bool UseStatx = RuntimeInformation.IsOSPlatform(OSPlatform.Linux) && Linux.LinuxFileTransfer.IsUsable();
#endif

    public static PathStatus Get(string fullPath)
    {
#if NET
        if (UseStatx)
        {
            const int AtSymlinkNoFollow = 0x100;
            const uint SIfLnk = 0xA000;
            if (Linux.LibC.Statx(Linux.LibC.AT_FDCWD, fullPath, AtSymlinkNoFollow, 0x1 /* STATX_TYPE */, out var entry) == 0)
            {
                if ((entry.Mode & Linux.LibC.S_IFMT) != SIfLnk)
                {
                    return new PathStatus(true, entry.IsDirectory);
                }

                // A link: it exists; it counts as a directory when it leads to one.
                return new PathStatus(true, Linux.LibC.Statx(Linux.LibC.AT_FDCWD, fullPath, 0, 0x1, out var target) == 0 && target.IsDirectory);
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

        return new PathStatus(File.Exists(fullPath) || IsLink(fullPath), false);
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
