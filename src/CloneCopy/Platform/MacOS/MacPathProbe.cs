namespace CloneCopy.Platform.MacOS;

/// <summary>
/// <see cref="PathProbe"/>'s answer on macOS from lstat (and stat for a link), so that the same-file and
/// shared-entry rules have the device and inode there as they do on Linux.
/// </summary>
internal static class MacPathProbe
{
    /// <summary>Null when the calls fail for another reason than "nothing there": the caller asks .NET instead.</summary>
    public static PathStatus? Get(string fullPath, IDarwinCalls calls)
    {
        int errno = calls.LStat(fullPath, out DarwinFileStatus entry);
        if (errno is MacCloneErrors.ENOENT or MacCloneErrors.ENOTDIR)
        {
            return new PathStatus(false, false);
        }

        if (errno != 0)
        {
            return null;
        }

        if (!entry.IsSymbolicLink)
        {
            return new PathStatus(true, entry.IsDirectory) { LinkCount = entry.LinkCount, Device = entry.Device, Inode = entry.Inode };
        }

        // A link: it exists; it is a directory, and has an identity, through what it leads to.
        bool resolved = calls.Stat(fullPath, out DarwinFileStatus target) == 0;
        return new PathStatus(true, resolved && target.IsDirectory)
        {
            IsLink = true,
            LinkCount = entry.LinkCount,
            Device = resolved ? target.Device : 0,
            Inode = resolved ? target.Inode : 0,
        };
    }
}
