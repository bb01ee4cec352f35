namespace CloneCopy.Engine;

/// <summary>
/// One operating system's "clone this whole file" primitive, for the platforms whose transfer chain is
/// "clone, else the platform's copy" (Windows, macOS). Linux has its own richer chain.
/// Implementations classify their failures; they throw only for real errors (no space, I/O).
/// </summary>
internal interface IFileCloner
{
    /// <summary>A key for the volume holding <paramref name="path"/>; verdicts are cached per pair of keys.</summary>
    string VolumeOf(string path);

    /// <summary>True when a successful clone already carries the source's timestamps and attributes.</summary>
    bool ClonesKeepMetadata { get; }

    /// <summary>Clones <paramref name="source"/> over <paramref name="destination"/> (replacing it).</summary>
    CloneAttempt Clone(string source, string destination);
}

/// <summary>
/// The answer of one clone attempt, the same on every platform: cloned; impossible between these volumes
/// (fall back, cache the verdict); not now / not this file (fall back, cache nothing); the link limit (fall
/// back, re-seed, warn). A real error (no space, quota, I/O) is not an answer: it is thrown, and MSBuild's
/// retries and codes report it.
/// </summary>
internal readonly struct CloneAttempt
{
    private CloneAttempt(CloneAttemptKind kind, NotClonedReason reason, string detail)
    {
        Kind = kind;
        Reason = reason;
        Detail = detail;
    }

    public CloneAttemptKind Kind { get; }

    public NotClonedReason Reason { get; }

    /// <summary>What the platform said, for the log.</summary>
    public string Detail { get; }

    public static CloneAttempt Cloned { get; } = new(CloneAttemptKind.Cloned, NotClonedReason.None, string.Empty);

    public static CloneAttempt ImpossibleHere(NotClonedReason reason, string detail) => new(CloneAttemptKind.ImpossibleHere, reason, detail);

    public static CloneAttempt NotNow(string detail) => new(CloneAttemptKind.NotNow, NotClonedReason.RefusedForThisFile, detail);

    public static CloneAttempt LinkLimit(string detail) => new(CloneAttemptKind.LinkLimit, NotClonedReason.LinkLimit, detail);
}

internal enum CloneAttemptKind
{
    Cloned,
    ImpossibleHere,
    NotNow,
    LinkLimit,
}
