using System;
using System.IO;
using CloneCopy.Engine;

namespace CloneCopy.Platform.Windows;

/// <summary>Adapts an <see cref="ICopyOnWriteFilesystem"/> to the engine's <see cref="IFileCloner"/>, classifying its answers.</summary>
internal sealed class CopyOnWriteFilesystemCloner : IFileCloner
{
    private const int ErrorSharingViolation = unchecked((int)0x80070020);
    private const int ErrorLockViolation = unchecked((int)0x80070021);
    private const int ErrorDiskFull = unchecked((int)0x80070070);
    private const int ErrorHandleDiskFull = unchecked((int)0x80070027);

    private readonly ICopyOnWriteFilesystem _filesystem;

    public CopyOnWriteFilesystemCloner(ICopyOnWriteFilesystem filesystem) => _filesystem = filesystem;

    /// <summary>A block clone (FSCTL_DUPLICATE_EXTENTS_TO_FILE) carries data only.</summary>
    public bool ClonesKeepMetadata => false;

    public string VolumeOf(string path) => Path.GetPathRoot(Path.GetFullPath(path))?.ToUpperInvariant() ?? string.Empty;

    public CloneAttempt Clone(string source, string destination)
    {
        if (!_filesystem.CopyOnWriteLinkSupportedBetweenPaths(source, destination))
        {
            bool sameVolume = string.Equals(VolumeOf(source), VolumeOf(destination), StringComparison.OrdinalIgnoreCase);
            return CloneAttempt.ImpossibleHere(
                sameVolume ? NotClonedReason.FilesystemCannotClone : NotClonedReason.DifferentVolumes,
                sameVolume ? "the volume does not support block cloning" : "different volumes");
        }

        try
        {
            _filesystem.CloneFile(source, destination);
            return CloneAttempt.Cloned;
        }
        catch (MaxCloneFileLinksExceededException e)
        {
            return CloneAttempt.LinkLimit(e.Message);
        }
        catch (IOException e) when (e.HResult is ErrorSharingViolation or ErrorLockViolation)
        {
            return CloneAttempt.NotNow(e.Message);
        }
        catch (IOException e) when (e.HResult is not (ErrorDiskFull or ErrorHandleDiskFull))
        {
            // Integrity-stream mismatch, unaligned sparse layout, a filter driver saying no: copy this file.
            return CloneAttempt.NotNow(e.Message);
        }
    }
}
