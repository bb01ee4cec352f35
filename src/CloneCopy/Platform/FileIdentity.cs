using System;
using System.IO;
using System.Runtime.InteropServices;
using CloneCopy.Platform.Windows;

namespace CloneCopy.Platform;

/// <summary>
/// Recognises one file reached by two paths, so that a copy never deletes or truncates its own source.
/// On Linux and macOS from the device and inode <see cref="PathProbe"/> already read; on Windows from the
/// volume serial number and file id, read here on demand (<see cref="WindowsFileIdentity"/>). Where no
/// identity can be had it answers "not known to be the same", which leaves MSBuild's own behaviour.
/// </summary>
internal static class FileIdentity
{
    private static readonly WindowsFileIdentity? OnDemand =
        RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? new WindowsFileIdentity(Kernel32Calls.Instance) : null;

    /// <summary>
    /// True when writing the destination would destroy the source: both paths lead to the same file and
    /// either the source is a symbolic link to the destination, or the destination is the source's own
    /// directory entry seen through another path (a symlinked directory, a bind mount, a junction, subst).
    /// Two hard links of one file are not that: deleting the destination link leaves the source, as MSBuild
    /// expects.
    /// </summary>
    public static bool DestinationIsTheSource(string sourceFull, PathStatus source, string destinationFull, PathStatus destination) =>
        DestinationIsTheSource(sourceFull, source, destinationFull, destination, OnDemand);

    /// <summary>True when writing into this existing entry in place would also change another path's file.</summary>
    public static bool IsSharedEntry(PathStatus entry) => IsSharedEntry(entry, OnDemand);

    internal static bool DestinationIsTheSource(string sourceFull, PathStatus source, string destinationFull, PathStatus destination, WindowsFileIdentity? onDemand)
    {
        if (!source.HasIdentity && onDemand is not null)
        {
            return onDemand.DestinationIsTheSource(sourceFull, source, destinationFull, destination);
        }

        if (!source.HasIdentity || source.Device != destination.Device || source.Inode != destination.Inode)
        {
            return false; // the common case: decided without another system call
        }

        if (source.IsLink)
        {
            // A destination that is itself a symbolic link (one a first build made) holds no data: MSBuild's
            // Copy deletes it and makes it again, which loses nothing unless the source's own chain of links
            // passes through it (then the source would dangle, and MSBuild fails where we copy nothing).
            return !destination.IsLink || LinkChainPassesThrough(sourceFull, destinationFull);
        }

        // Names compared without case: where they differ only in case in one directory, a case-insensitive
        // volume (APFS, NTFS) holds one entry; on a case-sensitive one the two hard links share their content.
        if (!string.Equals(Path.GetFileName(sourceFull), Path.GetFileName(destinationFull), StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        PathStatus sourceDirectory = PathProbe.Get(Path.GetDirectoryName(sourceFull)!);
        PathStatus destinationDirectory = PathProbe.Get(Path.GetDirectoryName(destinationFull)!);
        return sourceDirectory.HasIdentity && sourceDirectory.Device == destinationDirectory.Device && sourceDirectory.Inode == destinationDirectory.Inode;
    }

    /// <summary>True when following <paramref name="linkPath"/>'s links, one by one, meets <paramref name="entryPath"/> (or loops).</summary>
    private static bool LinkChainPassesThrough(string linkPath, string entryPath)
    {
#if !NET
        // .NET Framework (Windows only) has no LinkTarget: there the old, cautious answer stands.
        return true;
#else
        string current = linkPath;
        for (int hop = 0; hop < 40; hop++)
        {
            string? target = new FileInfo(current).LinkTarget;
            if (target is null)
            {
                return false;
            }

            current = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(current)!, target));
            if (string.Equals(current, entryPath, PathComparison.Comparison))
            {
                return true;
            }
        }

        return true; // a loop, or a chain longer than the kernel follows: keep away from it
#endif
    }

    internal static bool IsSharedEntry(PathStatus entry, WindowsFileIdentity? onDemand)
    {
        if (entry.IsLink)
        {
            return true;
        }

        uint links = entry.LinkCount == 0 && entry.FullPath is not null && onDemand is not null ? onDemand.LinkCount(entry.FullPath) : entry.LinkCount;
        return links > 1;
    }
}
