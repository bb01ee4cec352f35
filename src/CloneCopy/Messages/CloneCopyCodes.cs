namespace CloneCopy;

/// <summary>CloneCopy's own message codes. Each is documented in the README ("Is it working?").</summary>
internal static class CloneCopyCodes
{
    /// <summary>Cloning could not be set up in this build process; every file is copied. Message.</summary>
    public const string CloningUnavailable = "CLC001";

    /// <summary>A volume could not be probed; files on it are copied. Message.</summary>
    public const string VolumeProbeFailed = "CLC002";

    /// <summary>A block reached the filesystem's reference limit; full copies were made. Warning.</summary>
    public const string LinkLimitReached = "CLC003";

    /// <summary>The outputs can clone, but package assemblies come from a package cache on another volume. Message.</summary>
    public const string PackageCacheOnOtherVolume = "CLC004";

    /// <summary>CloneCopyRequireClones is set and files were copied instead of cloned. Warning or error, as asked.</summary>
    public const string CopiedInsteadOfCloned = "CLC005";

    /// <summary>A CloneCopy setting has a value CloneCopy does not know (CloneCopyRequireClones=eror). Error.</summary>
    public const string InvalidSetting = "CLC006";

    /// <summary>CloneCopyRequireClones is set, but this host does not let the summary see its project's Copy calls, so the guard could not check them. Warning or error, as asked.</summary>
    public const string GuardCouldNotRun = "CLC007";

    /// <summary>A clone read back differed from its source; the file was copied again and the volume clones no more this build. Warning.</summary>
    public const string CloneReadBackDiffered = "CLC008";
}
