using System.IO;
using System.Runtime.InteropServices;

namespace CloneCopy.Platform;

/// <summary>
/// Recognises one file reached by two paths, so that a copy never deletes or truncates its own source.
/// Linux answers with device and inode numbers; elsewhere it answers "not known to be the same", which
/// leaves MSBuild's own behaviour.
/// </summary>
internal static class FileIdentity
{
#if NET
    private static readonly bool Supported = RuntimeInformation.IsOSPlatform(OSPlatform.Linux) && Linux.LinuxFileTransfer.IsUsable();
    private const int AtSymlinkNoFollow = 0x100;
    private const uint SIfLnk = 0xA000;
#endif

    /// <summary>
    /// True when writing the destination would destroy the source: both paths lead to the same file and
    /// either the destination is the source's own directory entry seen through another path (a symlinked
    /// directory, a bind mount) or the source is a symbolic link to the destination. Two hard links of one
    /// file are not that: deleting the destination link leaves the source, as MSBuild expects.
    /// </summary>
    public static bool DestinationIsTheSource(string sourceFull, string destinationFull)
    {
#if NET
        if (!Supported || !Stat(sourceFull, 0, out var source) || !Stat(destinationFull, 0, out var destination)
            || source.Device != destination.Device || source.Inode != destination.Inode)
        {
            return false;
        }

        if (Stat(sourceFull, AtSymlinkNoFollow, out var sourceEntry) && (sourceEntry.Mode & Linux.LibC.S_IFMT) == SIfLnk)
        {
            return true;
        }

        return string.Equals(Path.GetFileName(sourceFull), Path.GetFileName(destinationFull), System.StringComparison.Ordinal)
            && Stat(Path.GetDirectoryName(sourceFull)!, 0, out var sourceDirectory)
            && Stat(Path.GetDirectoryName(destinationFull)!, 0, out var destinationDirectory)
            && sourceDirectory.Device == destinationDirectory.Device && sourceDirectory.Inode == destinationDirectory.Inode;
#else
        return false;
#endif
    }

    /// <summary>True when writing into this existing file in place would also change another path's file.</summary>
    public static bool IsSharedEntry(string fullPath)
    {
#if NET
        return Supported && Stat(fullPath, AtSymlinkNoFollow, out var entry)
            && ((entry.Mode & Linux.LibC.S_IFMT) == SIfLnk || entry.LinkCount > 1);
#else
        return (new FileInfo(fullPath).Attributes & FileAttributes.ReparsePoint) != 0;
#endif
    }

#if NET
    private static bool Stat(string path, int flags, out Linux.LibC.StatxBuffer buffer) =>
        Linux.LibC.Statx(Linux.LibC.AT_FDCWD, path, flags, Linux.LibC.STATX_BASIC_STATS, out buffer) == 0;
#endif
}
