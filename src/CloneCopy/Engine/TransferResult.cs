namespace CloneCopy.Engine;

/// <summary>How the bytes of one file reached its destination.</summary>
internal enum TransferMethod
{
    /// <summary>The destination shares the source's extents (FICLONE, clonefile, block clone).</summary>
    Cloned,

    /// <summary>The kernel copied the data (copy_file_range); it may have shared extents, we cannot tell.</summary>
    KernelCopied,

    /// <summary>The data went through a user-space buffer (or the platform's own File.Copy).</summary>
    Copied,
}

/// <summary>Why a transfer was not a clone. <see cref="None"/> when it was.</summary>
internal enum NotClonedReason
{
    None,

    /// <summary>An empty source: there is nothing to share, and an attempt proves nothing.</summary>
    EmptyFile,

    /// <summary>
    /// The source's size did not say how much it holds (a named pipe, a device, a /proc file: their size is 0
    /// whatever they give), so it was read to its end, as File.Copy reads; there were bytes to copy.
    /// </summary>
    SizeNotKnownInAdvance,

    /// <summary>The filesystem holding the files cannot clone (ext4, tmpfs, XFS without reflink...).</summary>
    FilesystemCannotClone,

    /// <summary>Source and destination live on different filesystems or volumes.</summary>
    DifferentVolumes,

    /// <summary>The clone was refused for this file only, or only for now (EAGAIN, EPERM, EINVAL...).</summary>
    RefusedForThisFile,

    /// <summary>This platform build has no clone path; the platform's own copy ran.</summary>
    NoClonePathOnPlatform,

    /// <summary>A block of the source reached the filesystem's reference limit (ReFS: 8175 per block).</summary>
    LinkLimit,

    /// <summary>Cloning was switched off because setting it up or probing the volume failed.</summary>
    CloningDisabled,

    /// <summary>
    /// The destination already existed (MSBuild's rules keep a read-only one, or MSBUILDCOPYWITHOUTDELETE is
    /// set): a clone needs a new file, so the platform's copy wrote it in place, as MSBuild's Copy would.
    /// </summary>
    DestinationKept,

    /// <summary>
    /// Windows: a probe copy showed CopyFile clones on this volume itself (from the Moment 5 update, on ReFS and
    /// Dev Drive), so the platform's copy ran (faster there than a block clone of our own for small files).
    /// The volume was checked once per build, not each file.
    /// </summary>
    CopyFileClonesHere,

    /// <summary>
    /// Windows: the source has named data streams (the Mark of the Web's Zone.Identifier, for one) or extended
    /// attributes. A block clone carries the unnamed data stream only; CopyFile, which MSBuild's Copy calls,
    /// copies them all, so the file is left to it.
    /// </summary>
    CarriesMoreThanData,

    /// <summary>
    /// Windows: another process had the source open for writing, so the clone, which opens its source denying
    /// writers (the bytes it shares must not change under it), met a sharing violation; the platform's copy ran.
    /// </summary>
    SourceSharingViolation,

    /// <summary>
    /// Windows: the destination folder gives new files integrity streams and the source has none. CopyFile's copy
    /// gets the folder's integrity streams; a clone cannot (ReFS clones only between files with the same setting),
    /// so the platform's copy ran.
    /// </summary>
    IntegrityStreamsDiffer,

    /// <summary>
    /// Windows: the source or destination path names an alternate data stream ("a.dll:s", "a.dll::$DATA"). Cloning into
    /// a stream has crashed a Dev Drive build (microsoft/CopyOnWrite #24), so such a file is left to CopyFile.
    /// </summary>
    NamesAStream,

    /// <summary>
    /// Windows: this file answered whether CopyFile clones on its volume: CopyFile wrote it and did not clone. Its copy
    /// is a correct copy, the one MSBuild's Copy would have made, and is kept; later files there are cloned by CloneCopy.
    /// </summary>
    CopyFileCopiedWhenAsked,

    /// <summary>
    /// Windows: the source has integrity streams, its destination folder does not give them, and the volume refused to
    /// give them to a new file (FSCTL_SET_INTEGRITY_INFORMATION: "Minimum supported client: None supported"; access
    /// denied on Dev Drive). A clone needs them enabled in both files or disabled in both (Block Cloning), and CopyFile's
    /// copy has them: the platform's copy ran.
    /// </summary>
    IntegrityStreamsCannotBeGiven,

    /// <summary>
    /// Windows: the volume refused several clones in a row in this build with answers that are about one file by the
    /// documents (ERROR_NOT_SUPPORTED, ERROR_INVALID_PARAMETER), so CloneCopy stopped trying there until the next build.
    /// </summary>
    VolumeRefusesClones,

    /// <summary>
    /// A clone read back differed from its source (CLC008): the file was written again by a plain copy, and the volume
    /// clones no more in this build.
    /// </summary>
    CloneReadBackDiffered,
}

/// <summary>The outcome of copying one file's content and metadata.</summary>
internal readonly struct TransferResult
{
    public TransferResult(TransferMethod method, NotClonedReason reason, long bytes)
    {
        Method = method;
        Reason = reason;
        Bytes = bytes;
    }

    public TransferMethod Method { get; }

    public NotClonedReason Reason { get; }

    /// <summary>Length of the file that was transferred.</summary>
    public long Bytes { get; }

    public static TransferResult Cloned(long bytes) => new(TransferMethod.Cloned, NotClonedReason.None, bytes);
}
