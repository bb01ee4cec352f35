namespace CloneCopy.Engine;

/// <summary>What a failed clone attempt means for the caller.</summary>
internal readonly struct CloneFailure
{
    private CloneFailure(CloneFailureKind kind, NotClonedReason reason)
    {
        Kind = kind;
        Reason = reason;
    }

    public CloneFailureKind Kind { get; }

    public NotClonedReason Reason { get; }

    public static CloneFailure RealError() => new(CloneFailureKind.RealError, NotClonedReason.None);

    public static CloneFailure ImpossibleHere(NotClonedReason reason) => new(CloneFailureKind.ImpossibleHere, reason);

    public static CloneFailure NotNow() => new(CloneFailureKind.NotNow, NotClonedReason.RefusedForThisFile);
}

/// <summary>The three answers a clone attempt can give besides success.</summary>
internal enum CloneFailureKind
{
    /// <summary>Cloning is not possible between these volumes: fall back and cache the verdict.</summary>
    ImpossibleHere,

    /// <summary>Not possible for this file or right now: fall back, cache nothing.</summary>
    NotNow,

    /// <summary>A real I/O error (no space, quota, I/O, memory): report it, do not hide it behind a fallback.</summary>
    RealError,
}
