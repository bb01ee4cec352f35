using System;
using System.Collections.Concurrent;
using System.IO;
using System.Runtime.CompilerServices;
using System.Threading;
using CloneCopy.Engine;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Block cloning on ReFS and Dev Drive with FSCTL_DUPLICATE_EXTENTS_TO_FILE, as the engine's
/// <see cref="IFileCloner"/>. Every call into the system goes through <see cref="IWindowsSystemCalls"/>; the
/// steps are this class's own, and each answers the engine directly with a <see cref="CloneAttempt"/>.
/// docs/windows.md lists the calls a file costs, each with the document that requires it.
/// <para>
/// A pair of volumes is judged once per build: different volumes; a volume that cannot clone. Where Windows'
/// CopyFile clones by itself (learnt per volume per build from a real destination, <see cref="ProbeCopyFile"/>),
/// files are left to it.
/// </para>
/// <para>
/// A file: the source is opened denying writers and read with one query; what a clone would drop (named streams,
/// extended attributes) and a folder whose integrity streams the source lacks leave it to CopyFile. The destination
/// is created new (never an existing file replaced) and shared with no one, made sparse before its end of file is
/// set (so no clusters are allocated only to be released by the clone; not with integrity streams, which cannot be
/// sparse), given the source's integrity setting while empty where its folder would not give it, sized, cloned in
/// cluster-aligned chunks under 4 GiB, given the source's sparseness, and last its last write time and attributes,
/// on the same handle. On any failure or cancellation the half-made destination is marked for deletion by the last
/// call on its handle (<see cref="MarkForDeletion"/>) and goes when the handle closes. After the link limit the
/// clone reads a seed instead of the source (<see cref="OpenSeed"/>).
/// </para>
/// </summary>
internal sealed class WindowsBlockCloner : IFileCloner, ISeedingCloner, ICopyPreferringCloner
{
    /// <summary>
    /// Bytes per FSCTL call: under the 4 GiB limit (Block Cloning), a multiple of every cluster size, and the chunk the
    /// CopyOnWrite library uses (its MaxChunkSize, 1 &lt;&lt; 31, exercised by its CI on ReFS with a file of 2 GiB + 1 KiB).
    /// </summary>
    public const long DefaultChunkSize = 1L << 31;

    /// <summary>
    /// The smallest file that tells whether CopyFile clones: several clusters of any size ReFS has (4 or 64 KiB), as
    /// the old probe file had. Smaller files are cloned by CloneCopy meanwhile.
    /// </summary>
    public const long CopyFileProbeMinimum = 64 * 1024;

    /// <summary>
    /// The largest file that may tell: where CopyFile copies, the probe's copy is thrown away and the file cloned, so
    /// the question is asked of a file whose copy costs little. Larger files are cloned by CloneCopy meanwhile.
    /// </summary>
    public const long CopyFileProbeMaximum = 4 * 1024 * 1024;

    /// <summary>
    /// Builds before this one never clone in CopyFile: "Starting with the Windows 11 Moment 5 update (KB5034848) and
    /// later releases of Windows client and Windows Server builds" (Block Cloning), Moment 5 being an update of 22621
    /// and 22631. Windows Server 2022 is 20348.
    /// </summary>
    public const int FirstBuildWhoseCopyFileMayClone = 22621;

    // What CopyFile does on a volume, as learnt this build.
    private const int CopyFileUnknown = 0;
    private const int CopyFileProbing = 1;
    private const int CopyFileClones = 2;
    private const int CopyFileCopies = 3;

    private static readonly CloneAttempt LeftToCopyFile = CloneAttempt.LeftToPlatformCopy(NotClonedReason.CopyFileClonesHere, "Windows' CopyFile was seen to clone on this volume");

    private readonly IWindowsSystemCalls _calls;
    private readonly long _chunkSize;
    private readonly Lazy<int> _osBuild;
    private readonly ConcurrentDictionary<string, StrongBox<int>> _copyFileByVolume = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, FileIdentity> _atLinkLimit = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, Seed> _seeds = new(StringComparer.OrdinalIgnoreCase);
    private readonly Func<string, StrongBox<int>> _newCopyFileState;

    /// <param name="chunkSize">Tests make it small to see chunking with small files.</param>
    public WindowsBlockCloner(IWindowsSystemCalls calls, long chunkSize = DefaultChunkSize)
    {
        _calls = LongPathCalls.Over(calls);
        _chunkSize = chunkSize;
        Volumes = new WindowsVolumes(_calls);
        _osBuild = new Lazy<int>(() => _calls.GetOsBuild(out int build) == 0 ? build : 0);
        _newCopyFileState = _ => new StrongBox<int>(_osBuild.Value >= FirstBuildWhoseCopyFileMayClone ? CopyFileUnknown : CopyFileCopies);
    }

    public WindowsVolumes Volumes { get; }

    /// <summary>The clone sets the times and attributes CopyFile gives, on its own handle (nothing is opened again by path).</summary>
    public bool ClonesKeepMetadata => true;

    public string VolumeOf(string path) => Volumes.KeyOf(path);

    public void ForgetVolumes()
    {
        Volumes.Forget();
        _copyFileByVolume.Clear();
    }

    public NotClonedReason ProbeVolumes(string source, string destination)
    {
        string sourceKey = VolumeOf(source);
        if (!string.Equals(sourceKey, VolumeOf(destination), StringComparison.OrdinalIgnoreCase))
        {
            return NotClonedReason.DifferentVolumes;
        }

        return Volumes.CapabilityOf(sourceKey).CanBlockClone ? NotClonedReason.None : NotClonedReason.FilesystemCannotClone;
    }

    /// <summary>
    /// Records the fresh copy made after a link-limit answer as the seed of later clones of <paramref name="source"/>:
    /// its identity now (ChangeTime, last write time, end of file, file index; three calls, once), and the source's
    /// when the limit was met. A seed is used only while both still have those identities (<see cref="OpenSeed"/>).
    /// </summary>
    public void CopiedAtLinkLimit(string source, string copy)
    {
        if (!_atLinkLimit.TryRemove(source, out FileIdentity sourceIdentity)
            || _calls.CreateFile(copy, Win32.FileReadAttributes, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle handle) != 0)
        {
            return;
        }

        try
        {
            if (_calls.QueryAllInformation(handle, out Win32FileAllInformation copyInfo) == 0)
            {
                _seeds[source] = new Seed(copy, sourceIdentity, FileIdentity.Of(copyInfo));
            }
        }
        finally
        {
            _calls.CloseHandle(handle);
        }
    }

    /// <summary>Clones, or where CopyFile was seen to clone on the volume, leaves the file to it (<see cref="NotClonedReason.CopyFileClonesHere"/>).</summary>
    public CloneAttempt Clone(string source, string destination, CancellationToken cancellation) =>
        Guarded(source, destination, mayLeaveToCopyFile: true, cancellation);

    /// <summary>Clones even where CopyFile clones: a clone in place of a link, or with the CI guard on.</summary>
    public CloneAttempt CloneItself(string source, string destination, CancellationToken cancellation) =>
        Guarded(source, destination, mayLeaveToCopyFile: false, cancellation);

    private CloneAttempt Guarded(string source, string destination, bool mayLeaveToCopyFile, CancellationToken cancellation)
    {
        try
        {
            return CloneFile(source, destination, mayLeaveToCopyFile, cancellation);
        }
        catch (IOException e) when (!IsRealError(Win32.ErrorOf(e.HResult)))
        {
            // A volume that can no longer be queried (a new build forgot it meanwhile), or a call that threw
            // instead of answering: copy this file, as for any other refusal.
            return Classify(Win32.ErrorOf(e.HResult), e.Message);
        }
        catch (UnauthorizedAccessException e)
        {
            return CloneAttempt.NotNow(e.Message);
        }
    }

    private CloneAttempt CloneFile(string source, string destination, bool mayLeaveToCopyFile, CancellationToken cancellation)
    {
        string volumeKey = Volumes.KeyOf(destination);
        VolumeCapability volume = Volumes.CapabilityOf(volumeKey);
        if (!volume.CanBlockClone)
        {
            return CannotCloneHere(Win32.ErrorInvalidFunction, destination);
        }

        // Where CopyFile clones by itself, it is faster for small files than a block clone of our own (the CopyOnWrite
        // library's benchmarks), and MSBuild's Copy calls it: the file is left to it, before anything is opened.
        // Per file on the path where CopyFile clones: no new delegate and no new text (the detail is read by no one).
        StrongBox<int> copyFile = _copyFileByVolume.GetOrAdd(volumeKey, _newCopyFileState);
        if (mayLeaveToCopyFile && Volatile.Read(ref copyFile.Value) == CopyFileClones)
        {
            return LeftToCopyFile;
        }

        // Shared for reading and deleting only, as the CopyOnWrite library opens its source: no one can write the
        // bytes between our look at the file and the clone. A file another process has open for writing is a
        // sharing violation here, and is left to CopyFile, whose own share mode for its source is not documented
        // (Wine's shares write too): MSBuild's Copy would have called it.
        int opened = _calls.CreateFile(source, Win32.GenericRead, Win32.FileShareRead | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle from);
        if (opened == Win32.ErrorSharingViolation)
        {
            return CloneAttempt.LeftToPlatformCopy(NotClonedReason.SourceSharingViolation, Described(opened, source));
        }

        if (Failed(opened, source, out CloneAttempt failure))
        {
            return failure;
        }

        try
        {
            return CloneFrom(from, source, destination, volume, copyFile, cancellation);
        }
        finally
        {
            _calls.CloseHandle(from);
        }
    }

    /// <summary>The clone from the open source: what it would drop, integrity streams, then the new destination.</summary>
    private CloneAttempt CloneFrom(SafeFileHandle from, string source, string destination, VolumeCapability volume, StrongBox<int> copyFile, CancellationToken cancellation)
    {
        // One query for what the clone needs (length, attributes, times) and what CopyFile would carry (EaSize).
        if (Failed(_calls.QueryAllInformation(from, out Win32FileAllInformation sourceInfo), source, out CloneAttempt failure))
        {
            return failure;
        }

        if (WhatACloneWouldDrop(from, source, sourceInfo, volume) is CloneAttempt dropped)
        {
            return dropped;
        }

        // Integrity streams (ReFS): CopyFile's copy has them "if either the source file or destination directory
        // have integrity set" (File Attribute Constants), and a clone needs "the same Integrity Streams setting"
        // on both files (Block Cloning). Asked only where the volume has them; no call at all when neither has.
        bool integrity = (sourceInfo.Attributes & Win32.FileAttributeIntegrityStream) != 0;
        IntegrityInformation? giveIntegrity = null;
        if (volume.Has(Win32.FileSupportsIntegrityStreams))
        {
            bool folderIntegrity = Volumes.FolderHasIntegrityStreams(destination);
            if (folderIntegrity && !integrity)
            {
                return CloneAttempt.LeftToPlatformCopy(NotClonedReason.IntegrityStreamsDiffer, $"'{Path.GetDirectoryName(destination) ?? destination}' gives new files integrity streams; '{source}' has none");
            }

            if (integrity && !folderIntegrity)
            {
                if (Failed(_calls.GetIntegrityInformation(from, out IntegrityInformation setting), source, out failure))
                {
                    return failure;
                }

                // MS-FSA 2.1.5.10.33: Flags may only be CHECKSUM_ENFORCEMENT_OFF, and never with CHECKSUM_TYPE_NONE.
                giveIntegrity = new IntegrityInformation(setting.ChecksumAlgorithm, setting.ChecksumAlgorithm == Win32.ChecksumTypeNone ? 0 : setting.Flags & Win32.IntegrityFlagChecksumEnforcementOff);
            }
        }

        // The first file of 64 KiB to 4 MiB on a volume whose CopyFile may clone finds out whether it does (one thread;
        // the others clone meanwhile and never wait). Not a read-only one: CopyFile's copy would be read-only, which
        // only POSIX delete could remove if CopyFile did not clone (MS-FSA 2.1.5.15.3; DeleteFileW refuses it too).
        bool mayAsk = sourceInfo.EndOfFile is >= CopyFileProbeMinimum and <= CopyFileProbeMaximum && (sourceInfo.Attributes & Win32.FileAttributeReadOnly) == 0;
        if (mayAsk && Interlocked.CompareExchange(ref copyFile.Value, CopyFileProbing, CopyFileUnknown) == CopyFileUnknown
            && ProbeCopyFile(from, source, destination, volume, copyFile) is CloneAttempt probed)
        {
            return probed;
        }

        // After a link-limit copy, the clone reads the seed (whose blocks have fewer references) instead of the source.
        SafeFileHandle? seed = OpenSeed(source, sourceInfo);
        try
        {
            CloneAttempt attempt = CloneTo(seed ?? from, sourceInfo, integrity, giveIntegrity, destination, volume, cancellation);
            if (attempt.Kind == CloneAttemptKind.LinkLimit)
            {
                // The engine copies the file next and tells us where (CopiedAtLinkLimit): that copy becomes the seed.
                _seeds.TryRemove(source, out _);
                _atLinkLimit[source] = FileIdentity.Of(sourceInfo);
            }

            return attempt;
        }
        finally
        {
            if (seed is not null)
            {
                _calls.CloseHandle(seed);
            }
        }
    }

    /// <summary>
    /// Whether CopyFile clones on this volume, learnt from this file, whose copy MSBuild's Copy would have made with it
    /// anyway: CopyFileW writes the real destination (nothing else is written, so a killed node leaves only what
    /// MSBuild's Copy would have), and the first clusters of source and copy are compared
    /// (FSCTL_GET_RETRIEVAL_POINTERS_AND_REFCOUNT, MS-FSCC 2.3.34: LCNs, not reference counts, which ReFS updates late).
    /// Shared: CopyFile clones here, and this file is its clone (Cloned). Not shared, or no answer: CloneCopy clones on
    /// this volume for the rest of the build, and the copy is deleted through its handle (null: clone it as any
    /// file). CopyFile refused (the destination exists, access denied): undecided, another file will tell.
    /// </summary>
    private CloneAttempt? ProbeCopyFile(SafeFileHandle from, string source, string destination, VolumeCapability volume, StrongBox<int> copyFile)
    {
        int error = _calls.CopyFile(source, destination);
        if (error != 0)
        {
            Volatile.Write(ref copyFile.Value, CopyFileUnknown);
            return Failed(error, destination, out CloneAttempt refused) ? refused : null;
        }

        if (_calls.CreateFile(destination, Win32.GenericRead | Win32.Delete, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle copy) != 0)
        {
            Volatile.Write(ref copyFile.Value, CopyFileCopies);
            _calls.DeleteFile(destination);
            return null;
        }

        bool clones = false, marked = false;
        try
        {
            clones = FirstClusterOf(from) is long lcn && lcn == FirstClusterOf(copy);
            Volatile.Write(ref copyFile.Value, clones ? CopyFileClones : CopyFileCopies);
            marked = !clones && MarkForDeletion(copy, volume);
        }
        finally
        {
            _calls.CloseHandle(copy);
            if (!clones && !marked)
            {
                _calls.DeleteFile(destination);
            }
        }

        return clones ? CloneAttempt.Cloned : null;
    }

    /// <summary>
    /// The LCN of a file's first extent, or null where that says nothing: no clusters (ERROR_HANDLE_EOF; data resident
    /// in the file record, ASSUMED A11 not to happen on ReFS), an unallocated first extent (-1), or LCN 0, which holds the
    /// volume's boot sector and is Wine's answer for every file.
    /// </summary>
    private long? FirstClusterOf(SafeFileHandle file)
    {
        int error = _calls.GetExtents(file, 1, out Win32Extent[] extents);
        return (error == 0 || error == Win32.ErrorMoreData) && extents.Length > 0 && extents[0].Lcn > 0 ? extents[0].Lcn : null;
    }

    /// <summary>
    /// The seed of <paramref name="source"/>, opened denying writers (as the source is), when the source and the seed
    /// both still have the identity recorded when the seed was made: the same ChangeTime, last write time, end of
    /// file and file index. Every write, and a replacement of the file, moves its ChangeTime (ASSUMED A4), so a seed
    /// that another build step rewrote in place with the same length and time is not used; and from this open to the
    /// clone nobody can write it (CreateFile's share rules). No data is read. Null (and the seed forgotten) otherwise.
    /// </summary>
    private SafeFileHandle? OpenSeed(string source, Win32FileAllInformation sourceInfo)
    {
        if (!_seeds.TryGetValue(source, out Seed? seed))
        {
            return null;
        }

        if (FileIdentity.Of(sourceInfo) == seed.Source
            && _calls.CreateFile(seed.Path, Win32.GenericRead, Win32.FileShareRead | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle handle) == 0)
        {
            if (_calls.QueryAllInformation(handle, out Win32FileAllInformation seedInfo) == 0 && FileIdentity.Of(seedInfo) == seed.Copy)
            {
                return handle;
            }

            _calls.CloseHandle(handle);
        }

        _seeds.TryRemove(source, out _);
        return null;
    }

    /// <summary>The new destination, cloned from <paramref name="data"/> (the source, or its seed); removed again on failure.</summary>
    private CloneAttempt CloneTo(SafeFileHandle data, Win32FileAllInformation sourceInfo, bool integrity, IntegrityInformation? giveIntegrity, string destination, VolumeCapability volume, CancellationToken cancellation)
    {
        // Created new (never an existing file replaced), shared with no one: no user-mode opener can hold the
        // half-made file. DELETE access is for the failure tail only.
        if (Failed(_calls.CreateFile(destination, Win32.GenericRead | Win32.GenericWrite | Win32.Delete, 0, Win32.CreateNew, Win32.FileAttributeNormal, out SafeFileHandle to), destination, out CloneAttempt failure))
        {
            return failure;
        }

        bool complete = false;
        try
        {
            CloneAttempt attempt = CloneInto(data, to, sourceInfo, integrity, giveIntegrity, volume.ClusterSize, destination, cancellation);
            complete = attempt.Kind == CloneAttemptKind.Cloned;
            return attempt;
        }
        finally
        {
            bool marked = complete || MarkForDeletion(to, volume);
            _calls.CloseHandle(to);
            if (!marked)
            {
                // A file system that refused both dispositions: delete by name, now that our handle is closed.
                _calls.DeleteFile(destination);
            }
        }
    }

    /// <summary>
    /// Marks the half-made destination for deletion, as the last call on its handle before it is closed: the WDK
    /// page for FILE_DISPOSITION_INFORMATION allows nothing but closing a handle that has marked its file. Where the
    /// volume has POSIX delete (FILE_SUPPORTS_POSIX_UNLINK_RENAME), FileDispositionInfoEx with POSIX semantics, which
    /// removes the name when this handle closes even if another handle (a scanner in kernel mode, which share mode 0
    /// does not stop) keeps the file open: the copy that follows finds the name free. Else, or if the Ex call is not
    /// understood, the plain disposition (the file goes at its last close). False when neither was accepted.
    /// </summary>
    private bool MarkForDeletion(SafeFileHandle file, VolumeCapability volume)
    {
        if (volume.Has(Win32.FileSupportsPosixUnlinkRename))
        {
            int error = _calls.SetDispositionEx(file, Win32.FileDispositionFlagDelete | Win32.FileDispositionFlagPosixSemantics | Win32.FileDispositionFlagIgnoreReadOnlyAttribute);
            if (error == 0)
            {
                return true;
            }

            // Rust's std falls back on these three (library/std/src/sys/pal/windows/fs.rs): the class or the flags
            // not known. Any other answer (access denied) would be the plain call's answer too.
            if (error is not (Win32.ErrorInvalidParameter or Win32.ErrorNotSupported or Win32.ErrorInvalidFunction))
            {
                return false;
            }
        }

        return _calls.SetDeleteOnClose(file, true) == 0;
    }

    /// <summary>The steps on the new, empty destination, up to a complete clone.</summary>
    /// <param name="integrity">The destination has (inherits, or is given) integrity streams: never made sparse (an integrity stream cannot be).</param>
    /// <param name="giveIntegrity">The source's integrity setting, to give the destination while it is empty; null when it inherits the same from its folder, or neither has any.</param>
    private CloneAttempt CloneInto(SafeFileHandle from, SafeFileHandle to, Win32FileAllInformation sourceInfo, bool integrity, IntegrityInformation? giveIntegrity, long clusterSize, string destination, CancellationToken cancellation)
    {
        CloneAttempt failure;
        if (!integrity && Failed(_calls.SetSparse(to, true), destination, out failure))
        {
            return failure;
        }

        // The integrity setting only while the file is empty (FSCTL_SET_INTEGRITY_INFORMATION), and before its blocks
        // are shared (MS-FSCC 2.3.74: STATUS_NOT_SUPPORTED then).
        if (giveIntegrity is IntegrityInformation setting && Failed(_calls.SetIntegrityInformation(to, setting), destination, out failure))
        {
            return failure;
        }

        // Block Cloning: "The destination region must not extend past the end of file": the end of file first.
        if (Failed(_calls.SetEndOfFile(to, sourceInfo.EndOfFile), destination, out failure))
        {
            return failure;
        }

        // The clone itself: the length rounded up to whole clusters, in chunks the FSCTL accepts.
        clusterSize = Math.Max(clusterSize, 1); // a volume that reported no geometry: the FSCTL will judge the alignment
        long rounded = (sourceInfo.EndOfFile + clusterSize - 1) / clusterSize * clusterSize;
        long chunk = Math.Max(clusterSize, _chunkSize / clusterSize * clusterSize);
        for (long offset = 0; offset < rounded; offset += chunk)
        {
            cancellation.ThrowIfCancellationRequested();
            int error = _calls.DuplicateExtents(from, to, offset, offset, Math.Min(chunk, rounded - offset));
            if (error == Win32.ErrorInvalidFunction)
            {
                // STATUS_INVALID_DEVICE_REQUEST: this filesystem does not implement the FSCTL (MS-FSA 2.1.5.10.4).
                return CannotCloneHere(error, destination);
            }

            if (Failed(error, destination, out failure))
            {
                return failure;
            }
        }

        if (!integrity && (sourceInfo.Attributes & Win32.FileAttributeSparseFile) == 0 && Failed(_calls.SetSparse(to, false), destination, out failure))
        {
            return failure;
        }

        // The last write time and the attributes CopyFile keeps (its remarks promise the attributes; the time is
        // ASSUMED A6), on the open handle and last, so nothing after it changes the time (FILE_BASIC_INFORMATION: 0
        // leaves a time as it is, so creation, access and change times stay the new file's). Only the attributes a
        // set may change (MS-FSA 2.1.5.15.2); none of them is FILE_ATTRIBUTE_NORMAL, which clears the archive bit a
        // new file is given.
        uint attributes = sourceInfo.Attributes & Win32.ValidSetAttributes;
        if (Failed(_calls.SetBasicInformation(to, new Win32FileTimes(0, 0, sourceInfo.Times.LastWriteTime, 0), attributes == 0 ? Win32.FileAttributeNormal : attributes), destination, out failure))
        {
            return failure;
        }

        return CloneAttempt.Cloned;
    }

    /// <summary>
    /// A block clone duplicates the extents of the one stream it is sent on (MS-FSA 2.1.5.10.4 operates on "an
    /// Open of a DataStream"); CopyFile also copies named streams and extended attributes (its remarks: it
    /// "preserves extended attributes, OLE structured storage, NTFS file system alternate data streams"). Such a
    /// source is left to CopyFile; a question the system cannot answer leaves this file to it too (a copy loses
    /// nothing). Null: nothing would be dropped.
    /// </summary>
    private CloneAttempt? WhatACloneWouldDrop(SafeFileHandle from, string source, Win32FileAllInformation sourceInfo, VolumeCapability volume)
    {
        // Streams are asked of a volume that has them (FILE_NAMED_STREAMS) only. No named streams: ERROR_HANDLE_EOF
        // (no streams at all, FILE_STREAM_INFO page), ERROR_INVALID_PARAMETER (STATUS_INVALID_INFO_CLASS, a store
        // that does not enumerate them, MS-FSA FileStreamInformation), ERROR_INVALID_FUNCTION (Wine 8).
        if (volume.Has(Win32.FileNamedStreams))
        {
            int error = _calls.GetStreamNames(from, out string[] streams);
            if (error == 0 && !Array.TrueForAll(streams, s => s == "::$DATA"))
            {
                return CloneAttempt.LeftToPlatformCopy(NotClonedReason.CarriesMoreThanData, $"'{source}' has named streams ({string.Join(", ", Array.FindAll(streams, s => s != "::$DATA"))}), which a clone would drop");
            }

            if (error is not (0 or Win32.ErrorHandleEof or Win32.ErrorInvalidParameter or Win32.ErrorInvalidFunction))
            {
                return CloneAttempt.NotNow($"Cannot list the streams of '{source}': {Win32.Describe(error)}");
            }
        }

        // Extended attributes: EaSize came with FileAllInformation. Kernel ones ($KERNEL.*, the code-integrity cache)
        // cannot be set from user mode ("silently ignored", Kernel Extended Attributes), so CopyFile cannot carry them
        // either; EA names are case-insensitive.
        if (sourceInfo.ExtendedAttributesSize == 0)
        {
            return null;
        }

        int eaError = _calls.GetExtendedAttributeNames(from, out string[] names);
        if (eaError != 0)
        {
            return CloneAttempt.NotNow($"Cannot read the extended attributes of '{source}': {Win32.Describe(eaError)}");
        }

        string[] carried = Array.FindAll(names, n => !n.StartsWith("$KERNEL.", StringComparison.OrdinalIgnoreCase));
        return carried.Length == 0
            ? null
            : CloneAttempt.LeftToPlatformCopy(NotClonedReason.CarriesMoreThanData, $"'{source}' has extended attributes ({string.Join(", ", carried)}), which a clone would drop");
    }

    /// <summary>
    /// The volume cannot duplicate extents at all: STATUS_INVALID_DEVICE_REQUEST (ERROR_INVALID_FUNCTION), which
    /// MS-FSA 2.1.5.10.4 reserves for an object store that does not implement the FSCTL. Only this answer
    /// condemns the volume (remembered for it); every other refusal is about one file (MS-FSCC 2.3.8 lists
    /// STATUS_NOT_SUPPORTED for per-file conditions).
    /// </summary>
    private static CloneAttempt CannotCloneHere(int error, string path) =>
        CloneAttempt.ImpossibleHere(NotClonedReason.FilesystemCannotClone, Described(error, path));

    /// <summary>
    /// True, with the engine's answer, when a call failed. A real error (no space, no quota) is thrown as .NET
    /// words an IOException, with the Win32 error in its HRESULT: File.Copy would fail too, and MSBuild's retries
    /// and codes report it.
    /// </summary>
    private static bool Failed(int error, string path, out CloneAttempt attempt)
    {
        attempt = default;
        if (error == 0)
        {
            return false;
        }

        string message = Described(error, path);
        if (IsRealError(error))
        {
            throw new IOException(message, Win32.HResultOf(error));
        }

        attempt = Classify(error, message);
        return true;
    }

    private static bool IsRealError(int error) =>
        error is Win32.ErrorDiskFull or Win32.ErrorHandleDiskFull or Win32.ErrorDiskQuotaExceeded;

    private static CloneAttempt Classify(int error, string message) => error switch
    {
        // ERROR_BLOCK_TOO_MANY_REFERENCES: a block of the source has reached the reference limit (8175 on ReFS).
        Win32.ErrorBlockTooManyReferences => CloneAttempt.LinkLimit(message),

        // Only MSBuild's rules may replace an existing destination: File.Copy does, with its own checks.
        Win32.ErrorFileExists or Win32.ErrorAlreadyExists => CloneAttempt.DestinationExists(message),

        Win32.ErrorNotSameDevice => CloneAttempt.ImpossibleHere(NotClonedReason.DifferentVolumes, message),

        // ERROR_NOT_SUPPORTED (STATUS_NOT_SUPPORTED: per file in MS-FSCC 2.3.8, e.g. a sparse source into a
        // non-sparse target), ERROR_INVALID_FUNCTION from any step but the clone itself (a query this volume
        // does not answer), a sharing violation, access denied, an integrity or alignment refusal: copy this
        // file, try the next. File.Copy then reports a real problem with .NET's own words.
        _ => CloneAttempt.NotNow(message),
    };

    /// <summary>As .NET words an IOException: "message : 'path'".</summary>
    private static string Described(int error, string path) => $"{Win32.Describe(error)} : '{path}'";

    /// <summary>What says a file is still the one it was: any write or replacement changes one of these.</summary>
    private readonly record struct FileIdentity(long ChangeTime, long LastWriteTime, long EndOfFile, long IndexNumber)
    {
        public static FileIdentity Of(Win32FileAllInformation information) =>
            new(information.Times.ChangeTime, information.Times.LastWriteTime, information.EndOfFile, information.IndexNumber);
    }

    /// <summary>A fresh copy later clones of a source read from: where it is, and the two identities it was made with.</summary>
    private sealed record Seed(string Path, FileIdentity Source, FileIdentity Copy);
}
