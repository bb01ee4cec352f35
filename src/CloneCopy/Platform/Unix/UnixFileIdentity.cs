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
            return true;
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

    /// <summary>True when writing into this existing entry in place would also change another path's file.</summary>
    public static bool IsSharedEntry(PathStatus entry) => entry.IsLink || entry.LinkCount > 1;
}
#endif
