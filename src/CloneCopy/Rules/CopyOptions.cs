namespace CloneCopy;

/// <summary>The task's per-file switches after environment overrides, fixed for one Execute.</summary>
internal sealed class CopyOptions
{
    public CopyOptions(CopyEscapeHatches escapeHatches) => EscapeHatches = escapeHatches;

    public int Retries { get; init; }

    public int RetryDelayMilliseconds { get; init; }

    public bool UseHardLinks { get; init; }

    public bool UseSymbolicLinks { get; init; }

    public bool ErrorIfLinkFails { get; init; }

    public bool SkipUnchangedFiles { get; init; }

    public bool OverwriteReadOnlyFiles { get; init; }

    public bool FailIfNotIncremental { get; init; }

    /// <summary>CloneCopyClonesInsteadOfLinks: where a link is asked for and the pair can clone, clone instead.</summary>
    public bool ClonesInsteadOfLinks { get; init; }

    /// <summary>
    /// CloneCopyAtomicReplace: an existing destination is replaced by a finished file renamed over it, never deleted
    /// first (<see cref="PairAttempt"/>, docs/how-it-works.md).
    /// </summary>
    public bool AtomicReplace { get; init; }

    /// <summary>Where CloneCopyAtomicReplace remembers which folders it has cleaned of abandoned replacement files.</summary>
    public CleanedFolders? CleanedFolders { get; init; }

    /// <summary>DestinationFolder's item spec, or null; a failure to create it because a file is in the way is not retried.</summary>
    public string? DestinationFolder { get; init; }

    public CopyEscapeHatches EscapeHatches { get; }

    /// <summary>Where relative item specs are resolved: the process's directory, or the project's under -mt.</summary>
    public CopyEnvironment Environment { get; init; } = CopyEnvironment.Process;

    /// <summary>Who holds a file, for MSB3026's and MSB3027's last sentence: MSBuild's own question; a test's answers in tests.</summary>
    public ILockedFileMessage LockedFiles { get; init; } = LockedFileMessage.MSBuilds;

    /// <summary>The MSBuild whose Copy rules apply (the one loaded in this process; another in tests).</summary>
    public RunningMSBuild MSBuild { get; init; } = RunningMSBuild.Current;
}
