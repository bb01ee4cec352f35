using System.IO;

namespace CloneCopy.Platform;

/// <summary>
/// Recognises one file reached by two paths, so that a copy never deletes or truncates its own source,
/// from the identities <see cref="PathProbe"/> already read. Where identities are unknown (not Linux) it
/// answers "not known to be the same", which leaves MSBuild's own behaviour.
/// </summary>
internal static class FileIdentity
{
    /// <summary>
    /// True when writing the destination would destroy the source: both paths lead to the same file and
    /// either the source is a symbolic link to the destination, or the destination is the source's own
    /// directory entry seen through another path (a symlinked directory, a bind mount). Two hard links of
    /// one file are not that: deleting the destination link leaves the source, as MSBuild expects.
    /// </summary>
    public static bool DestinationIsTheSource(string sourceFull, PathStatus source, string destinationFull, PathStatus destination)
    {
        if (!source.HasIdentity || source.Device != destination.Device || source.Inode != destination.Inode)
        {
            return false; // the common case: decided without another system call
        }

        if (source.IsLink)
        {
            return true;
        }

        if (!string.Equals(Path.GetFileName(sourceFull), Path.GetFileName(destinationFull), System.StringComparison.Ordinal))
        {
            return false;
        }

        PathStatus sourceDirectory = PathProbe.Get(Path.GetDirectoryName(sourceFull)!);
        PathStatus destinationDirectory = PathProbe.Get(Path.GetDirectoryName(destinationFull)!);
        return sourceDirectory.HasIdentity && sourceDirectory.Device == destinationDirectory.Device && sourceDirectory.Inode == destinationDirectory.Inode;
    }

    /// <summary>True when writing into this existing entry in place would also change another path's file.</summary>
    public static bool IsSharedEntry(PathStatus entry) => entry.IsLink || entry.LinkCount > 1;
}
