using CloneCopy.Engine;

namespace CloneCopy.Platform.MacOS;

/// <summary>What clonefile(2)'s errno values mean for the engine (macOS numbering).</summary>
internal static class MacCloneErrors
{
    public const int ENOENT = 2;
    public const int EIO = 5;
    public const int EACCES = 13;
    public const int EEXIST = 17;
    public const int EXDEV = 18;
    public const int ENOTDIR = 20;
    public const int EINVAL = 22;
    public const int ENOSPC = 28;
    public const int EWOULDBLOCK = 35;
    public const int ENOTSUP = 45;
    public const int EDQUOT = 69;

    /// <summary>Null for a real error the caller must throw; otherwise the attempt to report.</summary>
    public static CloneAttempt? Classify(int errno, string message) => errno switch
    {
        EIO or ENOSPC or EDQUOT => null,
        ENOTSUP => CloneAttempt.ImpossibleHere(NotClonedReason.FilesystemCannotClone, message),
        EXDEV => CloneAttempt.ImpossibleHere(NotClonedReason.DifferentVolumes, message),
        // Concurrent copies to one destination (dotnet/msbuild #13463): EEXIST, the other made it since we looked;
        // EACCES, the other holds it. A concurrent writer, never a volume that cannot clone: File.Copy, which MSBuild's
        // Copy calls, writes the file or throws its own exception for MSBuild's retries (CopyRetries), and the next
        // file on the volume is cloned.
        EEXIST => CloneAttempt.DestinationExists(message),
        EACCES => CloneAttempt.NotNow(message),
        _ => CloneAttempt.NotNow(message),
    };
}
