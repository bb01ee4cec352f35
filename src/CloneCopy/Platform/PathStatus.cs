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
