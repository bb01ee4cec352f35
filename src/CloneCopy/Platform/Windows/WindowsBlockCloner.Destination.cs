using System;
using System.Threading;
using CloneCopy.Engine;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>The new destination: created, cloned into, given the source's metadata; removed again through its own handle on failure.</summary>
internal sealed partial class WindowsBlockCloner
{
    /// <summary>The new destination, cloned from <paramref name="data"/> (the source, or its seed); removed again on failure.</summary>
    /// <param name="careful"><paramref name="data"/> is fresh: its clone FSCTLs are made under its mutex, and the clone is read back whole.</param>
    /// <param name="seeded"><paramref name="data"/> is a seed, not the source: its refusals do not count against the volume.</param>
    private CloneAttempt CloneTo(SafeFileHandle data, Win32FileAllInformation sourceInfo, bool integrity, IntegrityInformation? giveIntegrity, string destination, VolumeCapability volume, VolumeState state, long clusterSize, bool careful, bool seeded, CancellationToken cancellation)
    {
        // Created new (never an existing file replaced), shared with no one: no user-mode opener can hold the
        // half-made file. DELETE access is for the failure tail only. CloneCopyAtomicReplace's temporary file is created
        // Hidden and Temporary, so that one a killed build leaves is hidden; the metadata set last (the source's
        // attributes, as CopyFile gives them) takes both away before it is renamed over its destination.
        uint created = CloneCopy.ReplacementFiles.IsReplacement(destination) ? Win32.FileAttributeHidden | Win32.FileAttributeTemporary : Win32.FileAttributeNormal;
        if (Failed(_calls.CreateFile(destination, Win32.GenericRead | Win32.GenericWrite | Win32.Delete, 0, Win32.CreateNew, created, out SafeFileHandle to), destination, out CloneAttempt failure))
        {
            return failure;
        }

        bool complete = false;
        try
        {
            CloneAttempt attempt = CloneInto(data, to, sourceInfo, integrity, giveIntegrity, state, clusterSize, destination, careful, seeded, cancellation);
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
    private CloneAttempt CloneInto(SafeFileHandle from, SafeFileHandle to, Win32FileAllInformation sourceInfo, bool integrity, IntegrityInformation? giveIntegrity, VolumeState state, long clusterSize, string destination, bool careful, bool seeded, CancellationToken cancellation)
    {
        CloneAttempt failure;
        bool refusalCounts = !seeded && (sourceInfo.Attributes & Win32.FileAttributeSparseFile) == 0;
        if (!integrity && Failed(_calls.SetSparse(to, true), destination, out failure))
        {
            return failure;
        }

        // The integrity setting only while the file is empty (FSCTL_SET_INTEGRITY_INFORMATION), and before its blocks
        // are shared (MS-FSCC 2.3.74: STATUS_NOT_SUPPORTED then).
        if (giveIntegrity is IntegrityInformation setting)
        {
            int error = _calls.SetIntegrityInformation(to, setting);
            if (error == Win32.ErrorAccessDenied)
            {
                // Refused on our own new file, opened for writing: the volume does not give integrity streams here
                // (its page: "Minimum supported client: None supported"; Dev Drive, reflink-copy #27). Not fatal: a clone
                // needs them enabled in both files or disabled in both (Block Cloning), so CopyFile, whose copy has
                // them, writes this file, and the volume is remembered (CloneFrom).
                return CloneAttempt.LeftToPlatformCopy(NotClonedReason.IntegrityStreamsCannotBeGiven, Described(error, destination));
            }

            if (Failed(error, destination, out failure))
            {
                return failure;
            }
        }

        // Block Cloning: "The destination region must not extend past the end of file": the end of file first.
        if (Failed(_calls.SetEndOfFile(to, sourceInfo.EndOfFile), destination, out failure))
        {
            return failure;
        }

        // A fresh source's clones are made one at a time across the session's processes: its mutex, taken right before
        // the first clone FSCTL and released right after the last (the read-back needs no turn), and disposed at the end
        // of this attempt whatever happens, on this thread (ReleaseMutex: by its owner only). A wait that is cancelled
        // throws here, inside the caller's try that removes the half-made destination.
        using CloneLease? lease = careful ? SerializeClonesOf(from, cancellation) : null;

        // The clone itself: the length rounded up to whole clusters, in chunks the FSCTL accepts.
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

            // Per file by the documents, but counted: RefusalsBeforeGivingUp in a row stop the volume for this build. Only
            // refusals that say something about the volume: not those of a sparse source (a range past its allocated
            // clusters, MS-FSCC 2.3.8) or of a seed (a copy CloneCopy made), which CloneCopy cannot avoid.
            if ((error is Win32.ErrorNotSupported or Win32.ErrorInvalidParameter) && refusalCounts && Interlocked.Increment(ref state.Refusals) >= RefusalsBeforeGivingUp)
            {
                return CloneAttempt.ImpossibleHere(NotClonedReason.VolumeRefusesClones, $"{RefusalsBeforeGivingUp} clones in a row refused on this volume; the last: {Described(error, destination)}");
            }

            if (Failed(error, destination, out failure))
            {
                return failure;
            }
        }

        lease?.Release(); // the clone of a fresh source is done: the next one may start (the read-back needs no turn)
        Volatile.Write(ref state.Refusals, 0); // the volume clones: only refusals in a row count

        // Not sparse at the end, whatever the source: CopyFile keeps sparseness only when asked (COPY_FILE_ENABLE_SPARSE_COPY,
        // which MSBuild's Copy does not pass). A sparse source's holes are allocated now (MS-FSA 2.1.5.10.38), as
        // CopyFile would have written them.
        if (!integrity && Failed(_calls.SetSparse(to, false), destination, out failure))
        {
            return failure;
        }

        // The read-back (the first clone per volume per build, a fresh source's clone whole, or every clone with
        // CloneCopyVerifyClones), here: on the handles the clone was made with, none of which shares writing, so
        // another process cannot change either file meanwhile; after the sparse clear, so a clone that shared nothing
        // and was filled with zeros just now is seen; before the metadata, so a wrong clone is still a half-made file
        // without READONLY or HIDDEN, removed by the failure tail like any other, and the file is copied.
        if (_readBack?.Check(state.Key, from, to, sourceInfo.EndOfFile, destination, whole: careful) is CloneAttempt wrong)
        {
            return wrong;
        }

        // The last write time and the attributes CopyFile keeps (its remarks promise the attributes; the time is
        // ASSUMED A6), on the open handle and last, so nothing after it changes the time (FILE_BASIC_INFORMATION: 0
        // leaves a time as it is, so creation and access times stay the new file's). Only the attributes a set may
        // change (MS-FSA 2.1.5.15.2); none of them is FILE_ATTRIBUTE_NORMAL, which clears the archive bit a new file is
        // given. The change time is given too, the moment of this call as the system would have stamped it: known to
        // this process, it tells later that the file is still the clone made here, whose data is the shared clusters,
        // when it is the source of the next copy in a chain (a change through any other handle stamps a new one: MS-FSA
        // 2.1.4.17; ASSUMED A22 where ReFS would keep or ignore it).
        uint attributes = sourceInfo.Attributes & Win32.ValidSetAttributes;
        long changeTime = DateTime.UtcNow.ToFileTimeUtc();
        if (Failed(_calls.SetBasicInformation(to, new Win32FileTimes(0, 0, sourceInfo.Times.LastWriteTime, changeTime), attributes == 0 ? Win32.FileAttributeNormal : attributes), destination, out failure))
        {
            return failure;
        }

        RememberOnVolume(destination, new DataIdentity(changeTime, sourceInfo.Times.LastWriteTime, sourceInfo.EndOfFile));
        return CloneAttempt.Cloned;
    }
}
