using System;
using System.Collections.Concurrent;
using CloneCopy.Engine;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>What a clone reads: the seed after the link limit, and what the source carries that a clone would drop.</summary>
internal sealed partial class WindowsBlockCloner
{
    /// <summary>
    /// The seed of <paramref name="source"/>, opened denying writers (as the source is), when the source and the seed
    /// both still have the identity recorded when the seed was made (the same ChangeTime, last write time, end of
    /// file and file index) and the seed has the source's integrity streams setting. Every write, and a replacement of the file, moves its ChangeTime (ASSUMED A4), so a seed
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
            // And the same integrity streams setting as the source: the destination is given the source's, and a clone
            // needs "the same Integrity Streams setting" in both files (Block Cloning), but a copy gets integrity streams
            // from its folder too (File Attribute Constants), so the seed may have them where the source has none.
            if (_calls.QueryAllInformation(handle, out Win32FileAllInformation seedInfo) == 0 && FileIdentity.Of(seedInfo) == seed.Copy
                && (seedInfo.Attributes & Win32.FileAttributeIntegrityStream) == (sourceInfo.Attributes & Win32.FileAttributeIntegrityStream))
            {
                return handle;
            }

            _calls.CloseHandle(handle);
        }

        _seeds.TryRemove(source, out _);
        return null;
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

    /// <summary>What says a file is still the one it was: any write or replacement changes one of these.</summary>
    private readonly record struct FileIdentity(long ChangeTime, long LastWriteTime, long EndOfFile, long IndexNumber)
    {
        public static FileIdentity Of(Win32FileAllInformation information) =>
            new(information.Times.ChangeTime, information.Times.LastWriteTime, information.EndOfFile, information.IndexNumber);
    }

    /// <summary>A fresh copy later clones of a source read from: where it is, and the two identities it was made with.</summary>
    private sealed record Seed(string Path, FileIdentity Source, FileIdentity Copy);
}
