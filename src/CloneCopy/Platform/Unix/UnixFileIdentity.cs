#if NET
using System;
using System.IO;

namespace CloneCopy.Platform.Unix;

/// <summary>
/// Recognises one file reached by two paths, so that a copy never deletes or truncates its own source, from
/// the device and inode the probe already read (Linux, macOS, other Unix). Where the probe had no identity
/// it answers "not known to be the same", which leaves MSBuild's own behaviour.
/// </summary>
internal static class UnixFileIdentity
{
    /// <summary>See <see cref="IPlatform.DestinationIsTheSource"/>; <paramref name="probe"/> looks at the two parent directories.</summary>
    public static bool DestinationIsTheSource(string sourceFull, PathStatus source, string destinationFull, PathStatus destination, Func<string, PathStatus> probe)
    {
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

        PathStatus sourceDirectory = probe(Path.GetDirectoryName(sourceFull)!);
        PathStatus destinationDirectory = probe(Path.GetDirectoryName(destinationFull)!);
        return sourceDirectory.HasIdentity && sourceDirectory.Device == destinationDirectory.Device && sourceDirectory.Inode == destinationDirectory.Inode;
    }

    /// <summary>True when following <paramref name="linkPath"/>'s links, one by one, meets <paramref name="entryPath"/> (or loops).</summary>
    private static bool LinkChainPassesThrough(string linkPath, string entryPath)
    {
        string current = linkPath;
        for (int hop = 0; hop < 40; hop++)
        {
            string? target = new FileInfo(current).LinkTarget;
            if (target is null)
            {
                return false;
            }

            current = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(current)!, target));
            if (string.Equals(current, entryPath, MSBuildPlatformRules.PathComparison))
            {
                return true;
            }
        }

        return true; // a loop, or a chain longer than the kernel follows: keep away from it
    }

    /// <summary>True when writing into this existing entry in place would also change another path's file.</summary>
    public static bool IsSharedEntry(PathStatus entry) => entry.IsLink || entry.LinkCount > 1;
}
#endif
