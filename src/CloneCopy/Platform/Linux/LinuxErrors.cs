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
    /// Classifies a failed FICLONE the way coreutils' cp does: only EIO, ENOMEM, ENOSPC and EDQUOT are real
    /// errors; everything else means "copy the data instead". Of those, only answers that hold for the
    /// whole pair of filesystems are worth caching.
    /// </summary>
    /// <returns>The attempt to report, or null for a real error the caller must throw.</returns>
    public static CloneAttempt? ClassifyCloneError(int errno) => errno switch
    {
        EIO or ENOMEM or ENOSPC or EDQUOT => null,
        EXDEV => CloneAttempt.ImpossibleHere(NotClonedReason.DifferentVolumes, "EXDEV"),
        EOPNOTSUPP or ENOTTY or ENOSYS => CloneAttempt.ImpossibleHere(NotClonedReason.FilesystemCannotClone, $"errno {errno}"),
        // EINVAL (btrfs NOCOW vs COW, unaligned sizes), EPERM (immutable), EAGAIN (ZFS dirty blocks),
        // ETXTBSY (swap file), EBADF and anything unknown: this file, this moment. Fall back, remember nothing.
        _ => CloneAttempt.NotNow($"errno {errno}"),
    };

    /// <summary>True when copy_file_range cannot serve this pair at all and a buffered copy should run.</summary>
    public static bool KernelCopyUnavailable(int errno) =>
        errno is EXDEV or EOPNOTSUPP or ENOSYS or EINVAL or EBADF or EPERM or ENOTTY or EAGAIN or ETXTBSY;

    /// <summary>Builds the exception File.Copy would have thrown for this errno, with a readable message.</summary>
    public static Exception ToException(int errno, string path)
    {
        string message = $"{Marshal.GetPInvokeErrorMessage(errno)} : '{path}'";
        return errno switch
        {
            ENOENT => new FileNotFoundException(message, path),
            EACCES or EPERM or EROFS => new UnauthorizedAccessException(message),
            ENAMETOOLONG => new PathTooLongException(message),
            _ => new IOException(message, errno),
        };
    }
}
#endif
