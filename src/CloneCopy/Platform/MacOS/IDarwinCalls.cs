namespace CloneCopy.Platform.MacOS;

/// <summary>
/// Every macOS system call the macOS engine makes, so that tests can script them on any OS (macOS itself
/// is not among this project's machines). <see cref="DarwinLibC"/> is the only real implementation. Each
/// method returns 0 on success or the errno.
/// </summary>
internal interface IDarwinCalls
{
    /// <summary>stat(2): follows symbolic links.</summary>
    int Stat(string path, out DarwinFileStatus status);

    /// <summary>lstat(2): the entry itself.</summary>
    int LStat(string path, out DarwinFileStatus status);

    /// <summary>clonefile(2): the destination must not exist.</summary>
    int CloneFile(string source, string destination, uint flags);

    /// <summary>
    /// Removes an existing file as .NET's File.Copy(overwrite) removes its destination on macOS before cloning:
    /// opened for reading and writing without sharing (open(2), then the exclusive flock(2) .NET takes for
    /// FileShare.None), unlink(2), close(2). 0 when it is gone; otherwise an errno (EACCES: not writable;
    /// EWOULDBLOCK: another process holds it without sharing; ENOENT: already gone), and the file is untouched.
    /// </summary>
    int RemoveUnshared(string path);
}

/// <summary>The fields of struct stat the engine reads.</summary>
internal readonly record struct DarwinFileStatus(ulong Device, ulong Inode, uint LinkCount, bool IsDirectory, bool IsSymbolicLink);
