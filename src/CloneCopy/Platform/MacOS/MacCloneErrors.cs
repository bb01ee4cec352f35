using CloneCopy.Engine;

namespace CloneCopy.Platform.MacOS;

/// <summary>What clonefile(2)'s errno values mean for the engine (macOS numbering).</summary>
internal static class MacCloneErrors
{
    public const int EIO = 5;
    public const int EEXIST = 17;
    public const int EXDEV = 18;
    public const int EINVAL = 22;
    public const int ENOSPC = 28;
    public const int ENOTSUP = 45;
    public const int EDQUOT = 69;

    /// <summary>Null for a real error the caller must throw; otherwise the attempt to report.</summary>
    public static CloneAttempt? Classify(int errno, string message) => errno switch
    {
        EIO or ENOSPC or EDQUOT => null,
        ENOTSUP => CloneAttempt.ImpossibleHere(NotClonedReason.FilesystemCannotClone, message),
        EXDEV => CloneAttempt.ImpossibleHere(NotClonedReason.DifferentVolumes, message),
        _ => CloneAttempt.NotNow(message),
    };

    /// <summary>
    /// The volume key for a path: APFS volumes other than the system's are mounted under /Volumes/NAME;
    /// everything else is the boot volume group. Two paths with different keys are different volumes.
    /// </summary>
    public static string VolumeKey(string fullPath)
    {
        const string Volumes = "/Volumes/";
        if (!fullPath.StartsWith(Volumes, System.StringComparison.Ordinal))
        {
            return "/";
        }

        int end = fullPath.IndexOf('/', Volumes.Length);
        return end < 0 ? fullPath : fullPath.Substring(0, end);
    }
}
