using System;
using System.Collections.Concurrent;
using System.IO;
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
/// cluster-aligned chunks under 4 GiB, made not sparse again (CopyFile's copy is not sparse), and last its last write time and attributes,
/// on the same handle. On any failure or cancellation the half-made destination is marked for deletion by the last
/// call on its handle (<see cref="MarkForDeletion"/>) and goes when the handle closes. After the link limit the
/// clone reads a seed instead of the source (<see cref="OpenSeed"/>).
/// </para>
/// </summary>
internal sealed partial class WindowsBlockCloner : IFileCloner, ISeedingCloner, ICopyPreferringCloner, IReadingBackCloner, IRenameFollowingCloner<SafeFileHandle>
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
    /// The largest file that may tell: where CopyFile copies, the probe's copy is kept as that file's copy (a full copy,
    /// not a clone), so the question is asked of a file whose copy costs little. Larger files are cloned by CloneCopy
    /// meanwhile.
    /// </summary>
    public const long CopyFileProbeMaximum = 4 * 1024 * 1024;

    /// <summary>
    /// Builds before this one never clone in CopyFile: "Starting with the Windows 11 Moment 5 update (KB5034848) and
    /// later releases of Windows client and Windows Server builds" (Block Cloning), Moment 5 being an update of 22621
    /// and 22631. Windows Server 2022 is 20348.
    /// </summary>
    public const int FirstBuildWhoseCopyFileMayClone = 22621;

    /// <summary>
    /// Clone refusals in a row on one volume (ERROR_NOT_SUPPORTED or ERROR_INVALID_PARAMETER from the clone FSCTL, with
    /// no clone between) after which the volume clones no more this build. The documents make these per-file answers
    /// (MS-FSCC 2.3.8: a sparse source into a non-sparse target, overlapping ranges, a range beyond the allocation),
    /// and CloneCopy's own calls avoid every one of those, so even one is rare and three in a row mean a ReFS version
    /// or a filter driver that refuses every clone. Three, not one: a file another process made sparse or truncated
    /// meanwhile may be refused alone without condemning a volume; not more: each refusal costs a created and deleted
    /// destination on top of the copy, and stopping costs at most what MSBuild's Copy costs anyway. Counted only where
    /// a refusal says something about the volume: not for a sparse source (a range past its allocated clusters may be
    /// refused for that file alone) nor for a clone read from a seed (a copy CloneCopy made).
    /// </summary>
    public const int RefusalsBeforeGivingUp = 3;

    // What CopyFile does on a volume, as learnt this build.
    private const int CopyFileUnknown = 0;
    private const int CopyFileProbing = 1;
    private const int CopyFileClones = 2;
    private const int CopyFileCopies = 3;

    private static readonly CloneAttempt CopiedWhenAsked = CloneAttempt.LeftToPlatformCopy(NotClonedReason.CopyFileCopiedWhenAsked, "Windows' CopyFile was asked whether it clones on this volume, and copied");

    private static readonly CloneAttempt LeftToCopyFile = CloneAttempt.LeftToPlatformCopy(NotClonedReason.CopyFileClonesHere, "Windows' CopyFile was seen to clone on this volume");

    private readonly IWindowsSystemCalls _calls;
    private readonly long _chunkSize;
    private readonly Lazy<int> _osBuild;
    private readonly ConcurrentDictionary<string, VolumeState> _volumeStates = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, FileIdentity> _atLinkLimit = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, Seed> _seeds = new(StringComparer.OrdinalIgnoreCase);
    private readonly Func<string, VolumeState> _newVolumeState;
    private CloneReadBack? _readBack;

    /// <param name="chunkSize">Tests make it small to see chunking with small files.</param>
    /// <param name="environment">Where CLONECOPY_TEST_FRESH_SOURCES is read (<see cref="GuardsFreshSources"/>): the process's by default.</param>
    public WindowsBlockCloner(IWindowsSystemCalls calls, long chunkSize = DefaultChunkSize, CopyEnvironment? environment = null)
    {
        _calls = LongPathCalls.Over(calls);
        _chunkSize = chunkSize;
        _guardsFreshSources = GuardsFreshSources(environment ?? CopyEnvironment.Process);
        Volumes = new WindowsVolumes(_calls);
        _osBuild = new Lazy<int>(() => _calls.GetOsBuild(out int build) == 0 ? build : 0);
        _newVolumeState = key => new VolumeState(key, _osBuild.Value >= FirstBuildWhoseCopyFileMayClone ? CopyFileUnknown : CopyFileCopies);
    }

    public WindowsVolumes Volumes { get; }

    /// <summary>The read-back every clone passes before its metadata is set (<see cref="CloneReadBack"/>); none until the engine gives it.</summary>
    public void ReadBackWith(CloneReadBack readBack) => _readBack = readBack;

    /// <summary>The clone sets the times and attributes CopyFile gives, on its own handle (nothing is opened again by path).</summary>
    public bool ClonesKeepMetadata => true;

    public string VolumeOf(string path) => Volumes.KeyOf(path);

    public void ForgetVolumes()
    {
        Volumes.Forget();
        _volumeStates.Clear();
        _onVolume.Clear();
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
    /// first flushed (File.Copy has just written it, and it is CloneCopy's own file; three calls, once; a copy that cannot
    /// be flushed, a read-only one, is no seed), then its identity now (ChangeTime, last write time, end of file, file
    /// index; three calls, once), and the source's when the limit was met. A seed is used only while both still have those
    /// identities (<see cref="OpenSeed"/>). Flushed, its data is on the volume: as a source itself it is not fresh.
    /// </summary>
    public void CopiedAtLinkLimit(string source, string copy)
    {
        if (!_atLinkLimit.TryRemove(source, out FileIdentity sourceIdentity)
            || !FlushedOwnCopy(copy)
            || _calls.CreateFile(copy, Win32.FileReadAttributes, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle handle) != 0)
        {
            return;
        }

        try
        {
            if (_calls.QueryAllInformation(handle, out Win32FileAllInformation copyInfo) == 0)
            {
                _seeds[source] = new Seed(copy, sourceIdentity, FileIdentity.Of(copyInfo));
                RememberOnVolume(copy, DataIdentity.Of(copyInfo));
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
        // A stream on either side goes to CopyFile before anything is opened or asked (StreamPaths says why).
        if (StreamPaths.NamesAStream(source) || StreamPaths.NamesAStream(destination))
        {
            return CloneAttempt.LeftToPlatformCopy(NotClonedReason.NamesAStream, $"'{(StreamPaths.NamesAStream(destination) ? destination : source)}' names an alternate data stream, which is never block-cloned");
        }

        string volumeKey = Volumes.KeyOf(destination);
        VolumeCapability volume = Volumes.CapabilityOf(volumeKey);
        if (!volume.CanBlockClone)
        {
            return CannotCloneHere(Win32.ErrorInvalidFunction, destination);
        }

        // Where CopyFile clones by itself, it is faster for small files than a block clone of our own (the CopyOnWrite
        // library's benchmarks), and MSBuild's Copy calls it: the file is left to it, before anything is opened.
        // Per file on the path where CopyFile clones: no new delegate and no new text (the detail is read by no one).
        VolumeState state = _volumeStates.GetOrAdd(volumeKey, _newVolumeState);
        if (mayLeaveToCopyFile && Volatile.Read(ref state.CopyFile) == CopyFileClones)
        {
            return LeftToCopyFile;
        }

        // Shared for reading and deleting only, as the CopyOnWrite library opens its source: no one can write the
        // bytes between our look at the file and the clone, and every other reader (CopyFile's share mode for its source
        // is read and delete too) still may open it. A file another process has open for writing is a sharing violation
        // here, and is left to CopyFile: MSBuild's Copy would have called it.
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
            // One query for what the clone needs (length, attributes, times) and what CopyFile would carry (EaSize).
            if (Failed(_calls.QueryAllInformation(from, out Win32FileAllInformation sourceInfo), source, out failure))
            {
                return failure;
            }

            return CloneFrom(from, sourceInfo, source, destination, volume, state, mayLeaveToCopyFile, IsFresh(source, sourceInfo), cancellation);
        }
        finally
        {
            _calls.CloseHandle(from);
        }
    }

    /// <summary>The clone from the open source: what it would drop, integrity streams, then the new destination.</summary>
    /// <param name="mayAskCopyFile">False where the file may not be left to CopyFile (the guard, a clone in place of a link): such a file never asks the CopyFile question, whose copy is kept where CopyFile copies, since it must be a clone.</param>
    /// <param name="fresh">The source's data may still be only in the cache (<see cref="IsFresh"/>): its clone FSCTLs are made under its mutex, and the clone is read back whole.</param>
    private CloneAttempt CloneFrom(SafeFileHandle from, Win32FileAllInformation sourceInfo, string source, string destination, VolumeCapability volume, VolumeState state, bool mayAskCopyFile, bool fresh, CancellationToken cancellation)
    {
        CloneAttempt failure;
        if (WhatACloneWouldDrop(from, source, sourceInfo, volume) is CloneAttempt dropped)
        {
            return dropped;
        }

        if (ClusterSizeOf(from, volume, state, destination, out IntegrityInformation? sourceSetting) is not long clusterSize)
        {
            return CloneAttempt.NotNow($"Cannot tell the cluster size of the volume holding '{destination}'");
        }

        // Integrity streams (ReFS): CopyFile's copy has them "if either the source file or destination directory
        // have integrity set" (File Attribute Constants), and a clone needs "the same Integrity Streams setting"
        // on both files (Block Cloning). Asked only where the volume has them; no further call when neither has.
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
                if (Volatile.Read(ref state.GivesNoIntegrity))
                {
                    return CloneAttempt.LeftToPlatformCopy(NotClonedReason.IntegrityStreamsCannotBeGiven, $"the volume holding '{destination}' refused to give a new file integrity streams; '{source}' has them");
                }

                IntegrityInformation setting = default;
                if (sourceSetting is IntegrityInformation known)
                {
                    setting = known;
                }
                else if (Failed(_calls.GetIntegrityInformation(from, out setting, out _), source, out failure))
                {
                    return failure;
                }

                // MS-FSA 2.1.5.10.33: Flags may only be CHECKSUM_ENFORCEMENT_OFF, and never with CHECKSUM_TYPE_NONE.
                giveIntegrity = new IntegrityInformation(setting.ChecksumAlgorithm, setting.ChecksumAlgorithm == Win32.ChecksumTypeNone ? 0 : setting.Flags & Win32.IntegrityFlagChecksumEnforcementOff);
            }
        }

        // The first file of 64 KiB to 4 MiB on a volume whose CopyFile may clone finds out whether it does (one thread;
        // the others clone meanwhile and never wait). Its copy is kept either way, so a read-only file may ask too. Not
        // a sparse one: its first cluster may be a hole (LCN -1), which says nothing about where CopyFile's copy lies.
        bool mayAsk = mayAskCopyFile && sourceInfo.EndOfFile is >= CopyFileProbeMinimum and <= CopyFileProbeMaximum
            && (sourceInfo.Attributes & Win32.FileAttributeSparseFile) == 0;
        if (mayAsk && Interlocked.CompareExchange(ref state.CopyFile, CopyFileProbing, CopyFileUnknown) == CopyFileUnknown
            && ProbeCopyFile(from, sourceInfo, source, destination, volume, state, fresh) is CloneAttempt probed)
        {
            if (fresh && probed.Kind == CloneAttemptKind.Cloned && _readBack is not null)
            {
                RememberOnVolume(source, DataIdentity.Of(sourceInfo)); // CopyFile's clone read back whole and right
            }

            return probed;
        }

        // After a link-limit copy, the clone reads the seed (whose blocks have fewer references) instead of the source:
        // CloneCopy's own copy, flushed, so the source's freshness does not matter then.
        SafeFileHandle? seed = OpenSeed(source, sourceInfo);
        bool careful = fresh && seed is null;
        try
        {
            CloneAttempt attempt = CloneTo(seed ?? from, sourceInfo, integrity, giveIntegrity, destination, volume, state, clusterSize, careful, seeded: seed is not null, cancellation);
            if (careful && attempt.Kind == CloneAttemptKind.Cloned && _readBack is not null)
            {
                RememberOnVolume(source, DataIdentity.Of(sourceInfo)); // read back whole and right: its data is on the volume
            }

            if (attempt.Reason == NotClonedReason.IntegrityStreamsCannotBeGiven)
            {
                Volatile.Write(ref state.GivesNoIntegrity, true); // later such files go to CopyFile before a destination is made
            }

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
}
