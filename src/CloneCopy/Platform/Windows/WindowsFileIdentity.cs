using System;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// File identity on Windows, read only when a rule needs it (the destination exists), because opening a
/// file costs far more than the one attribute query that <see cref="PathProbe"/> makes: volume serial
/// number and file id (the 128-bit FILE_ID_INFO where the volume has it, since ReFS's 64-bit index is not
/// unique; else GetFileInformationByHandle's index), and the link count. Files are opened for attributes
/// only, with backup semantics, sharing everything, so a file in use elsewhere can still be identified.
/// </summary>
internal sealed class WindowsFileIdentity
{
    private const uint ShareAll = Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete;

    private readonly IWindowsSystemCalls _kernel;

    public WindowsFileIdentity(IWindowsSystemCalls kernel) => _kernel = kernel;

    /// <summary>
    /// True when writing the destination would destroy the source: both paths lead to one file, and either
    /// the source is a symbolic link (to the destination), or the destination is the source's own directory
    /// entry reached another way (a junction, a subst drive, a mounted folder, a short 8.3 name), which the
    /// final path tells apart from a second hard link. Unknowable answers err on the side of the source.
    /// </summary>
    public bool DestinationIsTheSource(string sourceFull, PathStatus source, string destinationFull, PathStatus destination)
    {
        if (!TryRead(sourceFull, out Identity sourceId) || !TryRead(destinationFull, out Identity destinationId) || !sourceId.SameFileAs(destinationId))
        {
            return false;
        }

        if (source.IsLink)
        {
            return true;
        }

        if (destination.IsLink)
        {
            return false; // deleting the destination link leaves the source
        }

        if (!WindowsLinks.TryGetFinalPath(_kernel, sourceFull, out string sourceFinal) || !WindowsLinks.TryGetFinalPath(_kernel, destinationFull, out string destinationFinal))
        {
            return true; // one file, and we cannot tell whether it is one entry: do not risk deleting it
        }

        return string.Equals(sourceFinal, destinationFinal, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>Hard links to the file the path leads to; 0 when it cannot be read.</summary>
    public uint LinkCount(string fullPath) => TryRead(fullPath, out Identity id) ? id.Links : 0;

    private bool TryRead(string path, out Identity identity)
    {
        identity = default;
        if (_kernel.CreateFile(path, Win32.FileReadAttributes, ShareAll, Win32.OpenExisting, Win32.FileFlagBackupSemantics, out var handle) != 0)
        {
            return false;
        }

        try
        {
            if (_kernel.GetFileInformation(handle, out Win32FileInformation information) != 0)
            {
                return false;
            }

            identity = _kernel.GetFileId(handle, out Win32FileId id) == 0
                ? new Identity(id.VolumeSerialNumber, id.IdLow, id.IdHigh, true, information.NumberOfLinks)
                : new Identity(information.VolumeSerialNumber, information.FileIndex, 0, false, information.NumberOfLinks);
            return true;
        }
        finally
        {
            _kernel.CloseHandle(handle);
        }
    }

    private readonly record struct Identity(ulong Volume, ulong IdLow, ulong IdHigh, bool IsFullId, uint Links)
    {
        /// <summary>Compared only when both were read the same way (FILE_ID_INFO or the 64-bit index).</summary>
        public bool SameFileAs(Identity other) =>
            IsFullId == other.IsFullId && Volume == other.Volume && IdLow == other.IdLow && IdHigh == other.IdHigh;
    }
}
