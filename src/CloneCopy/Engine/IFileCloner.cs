using System.Threading;

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

    /// <summary>Forgets whatever it cached about volumes (a new build: a volume may have been mounted or unlocked).</summary>
    void ForgetVolumes();

    /// <summary>True when a successful clone already carries the source's timestamps and attributes.</summary>
    bool ClonesKeepMetadata { get; }

    /// <summary>
    /// Whether files on the volume of <paramref name="source"/> can be cloned to the volume of
    /// <paramref name="destination"/> at all: <see cref="NotClonedReason.None"/> to try, else why not.
    /// Asked once per pair of volume keys. It may throw (a volume that cannot be queried): the caller turns
    /// that into one diagnostic and copies, because probing must never fail a build.
    /// </summary>
    NotClonedReason ProbeVolumes(string source, string destination);

    /// <summary>
    /// Clones <paramref name="source"/> to <paramref name="destination"/>, which it creates. It never
    /// deletes or replaces an existing destination (only the task's rules decide that): an existing one is
    /// answered with <see cref="CloneAttempt.DestinationExists"/>, and the platform's copy decides. On any
    /// failure, cancellation included, a destination it created is removed again.
    /// </summary>
    CloneAttempt Clone(string source, string destination, CancellationToken cancellation);
}

/// <summary>
/// A cloner whose volumes limit the references to one block (ReFS and Dev Drive: 8175) and that re-seeds itself:
/// after a <see cref="CloneAttemptKind.LinkLimit"/> answer the engine copies the file with the platform's copy, whose
/// blocks start again at one reference, and tells the cloner where that copy is; later clones of the same source may
/// read from it for as long as the cloner can prove both files unchanged. The engine asks for it with a type test, so
/// a cloner without a link limit (macOS) needs nothing.
/// </summary>
internal interface ISeedingCloner
{
    /// <summary>
    /// The platform's copy of <paramref name="source"/> (the path given to <see cref="IFileCloner.Clone"/>), made after
    /// that clone answered <see cref="CloneAttemptKind.LinkLimit"/>, is at <paramref name="copy"/>.
    /// </summary>
    void CopiedAtLinkLimit(string source, string copy);
}

/// <summary>
/// A cloner that on some volumes leaves files to the platform's copy because that copy clones there by itself
/// (<see cref="NotClonedReason.CopyFileClonesHere"/>: Windows' CopyFile from the Moment 5 update). Where only a clone
/// known to be one will do (a clone in place of a link; the CI guard, <see cref="BuildVerdicts.ClonesMustBeKnown"/>),
/// the engine asks through this instead of <see cref="IFileCloner.Clone"/>.
/// </summary>
internal interface ICopyPreferringCloner
{
    /// <summary>As <see cref="IFileCloner.Clone"/>, but never answers <see cref="NotClonedReason.CopyFileClonesHere"/>.</summary>
    CloneAttempt CloneItself(string source, string destination, CancellationToken cancellation);
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

    /// <summary>The destination exists (MSBuild's rules kept it): the platform's copy writes it, with its own checks.</summary>
    public static CloneAttempt DestinationExists(string detail) => new(CloneAttemptKind.NotNow, NotClonedReason.DestinationKept, detail);

    /// <summary>This file needs the platform's copy (it carries more than a clone would): copy it, cache nothing.</summary>
    public static CloneAttempt LeftToPlatformCopy(NotClonedReason reason, string detail) => new(CloneAttemptKind.NotNow, reason, detail);

    public static CloneAttempt LinkLimit(string detail) => new(CloneAttemptKind.LinkLimit, NotClonedReason.LinkLimit, detail);
}

internal enum CloneAttemptKind
{
    Cloned,
    ImpossibleHere,
    NotNow,
    LinkLimit,
}
