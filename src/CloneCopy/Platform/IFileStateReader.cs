namespace CloneCopy.Platform;

/// <summary>
/// A platform that can answer MSBuild's up-to-date questions (FileInfo's Exists, Length and LastWriteTimeUtc) and
/// the per-file rules' probe from one system call per path, where the answer is simple (Linux, with statx). MSBuild's
/// Copy keeps what it learnt about a destination for the attempt that follows (its FileState); so does CloneCopy, with
/// the status read here. Only an optional capability: where a platform lacks it, FileInfo and the probe answer.
/// </summary>
internal interface IFileStateReader
{
    /// <summary>
    /// One look at <paramref name="path"/>: true with the answer when nothing is there or a regular file (not a
    /// link) is; false where FileInfo must decide as before (a link, a folder, a special file, any other error).
    /// </summary>
    bool TryReadFileState(string path, out FileState state);
}

/// <summary>What FileInfo would say of a path that holds nothing or a regular file, and the probe's status of it.</summary>
internal readonly struct FileState
{
    public FileState(PathStatus status, long length, long lastWriteTicks)
    {
        Status = status;
        Length = length;
        LastWriteTicks = lastWriteTicks;
    }

    public bool Exists => Status.Exists;

    public PathStatus Status { get; }

    public long Length { get; }

    /// <summary>FileInfo.LastWriteTimeUtc's ticks (100 ns; the nanoseconds cut as .NET cuts them).</summary>
    public long LastWriteTicks { get; }
}
