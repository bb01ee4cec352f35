#if NET
using System;
using System.IO;
using System.Runtime.InteropServices;
using CloneCopy.Engine;

namespace CloneCopy.Platform.Linux;

/// <summary>Linux errno values we act on, their classification, and their translation to .NET exceptions.</summary>
internal static class LinuxErrors
{
    public const int EPERM = 1;
    public const int ENOENT = 2;
    public const int EINTR = 4;
    public const int EIO = 5;
    public const int EBADF = 9;
    public const int EAGAIN = 11;
    public const int ENOMEM = 12;
    public const int EACCES = 13;
    public const int EEXIST = 17;
    public const int EXDEV = 18;
    public const int ENOTDIR = 20;
    public const int EISDIR = 21;
    public const int EINVAL = 22;
    public const int ENOTTY = 25;
    public const int ETXTBSY = 26;
    public const int ENOSPC = 28;
    public const int EROFS = 30;
    public const int ENOSYS = 38;
    public const int ENAMETOOLONG = 36;
    public const int EOPNOTSUPP = 95;
    public const int EDQUOT = 122;

    /// <summary>
    /// Classifies a failed FICLONE. Every answer means "copy the data instead", as for .NET's File.Copy, which MSBuild's
    /// Copy calls (the fault lane saw it copy and pass after FICLONE's EIO and ENOSPC): an I/O error or a full disk then
    /// meets the copy, which fails this attempt with its own error if the fault is real. Only answers that hold for the
    /// whole pair of filesystems are worth caching.
    /// </summary>
    public static CloneAttempt ClassifyCloneError(int errno) => errno switch
    {
        EXDEV => CloneAttempt.ImpossibleHere(NotClonedReason.DifferentVolumes, "EXDEV"),
        EOPNOTSUPP or ENOTTY or ENOSYS => CloneAttempt.ImpossibleHere(NotClonedReason.FilesystemCannotClone, $"errno {errno}"),
        // EINVAL (btrfs NOCOW vs COW, unaligned sizes), EPERM (immutable), EAGAIN (ZFS dirty blocks), ETXTBSY (swap
        // file), EBADF, EIO, ENOSPC, EDQUOT, ENOMEM and anything unknown: this file, this moment. Fall back, remember nothing.
        _ => CloneAttempt.NotNow($"errno {errno}"),
    };

    /// <summary>
    /// The exception .NET's File.Copy throws for this errno, with its type, words and HResult (MSB3021 and MSB3026
    /// quote the words; MSBuild's retry rule reads the HResult of "access denied"): the errnos .NET names in its own
    /// words, and for the rest the C library's text, followed by the path where .NET gives one.
    /// </summary>
    /// <param name="path">The path .NET names: the file it opened or truncated; null for a failure inside its copy of
    /// the content (clone, kernel copy, read, write, times), which .NET reports without a path.</param>
    /// <param name="inMissingFolder">For ENOENT: the file's folder is missing too (.NET then blames the path, not the file).</param>
    public static Exception ToException(int errno, string? path, bool inMissingFolder = false)
    {
        bool named = !string.IsNullOrEmpty(path);
        return errno switch
        {
            ENOENT when inMissingFolder => PartOfPathNotFound(path),
            ENOTDIR => PartOfPathNotFound(path), // a file where the path needs a folder ("a.txt/"), in .NET's words
            ENOENT => named ? new FileNotFoundException($"Could not find file '{path}'.", path) : new FileNotFoundException("Unable to find the specified file."),
            // .NET reads a directory where a file was to be opened (EISDIR) as access denied, and keeps the C library's
            // words as the inner exception, which MSB3894 prints (MSBUILDALWAYSRETRY).
            EACCES or EBADF or EPERM or EISDIR => new UnauthorizedAccessException(
                named ? $"Access to the path '{path}' is denied." : "Access to the path is denied.",
                new IOException(Marshal.GetPInvokeErrorMessage(errno == EISDIR ? EACCES : errno), errno == EISDIR ? EACCES : errno)),
            ENAMETOOLONG => new PathTooLongException(named ? $"The path '{path}' is too long, or a component of the specified path is too long." : "The specified file name or path is too long, or a component of the specified path is too long."),
            EAGAIN => new IOException(named ? $"The process cannot access the file '{path}' because it is being used by another process." : "The process cannot access the file because it is being used by another process.", errno),
            EEXIST => new IOException(named ? $"The file '{path}' already exists." : "The file already exists.", errno),
            _ => new IOException(named ? $"{Marshal.GetPInvokeErrorMessage(errno)} : '{path}'" : Marshal.GetPInvokeErrorMessage(errno), errno),
        };
    }

    private static DirectoryNotFoundException PartOfPathNotFound(string? path) =>
        new(string.IsNullOrEmpty(path) ? "Could not find a part of the path." : $"Could not find a part of the path '{path}'.");
}
#endif
