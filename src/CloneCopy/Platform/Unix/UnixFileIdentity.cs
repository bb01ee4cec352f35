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
            return true;
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
