using System;
using System.IO;
using System.Threading;
using CloneCopy.Engine;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Adapts an <see cref="ICopyOnWriteFilesystem"/> to the engine's <see cref="IFileCloner"/>: names volumes,
/// judges a pair of volumes once per build (different volumes; cannot clone; CopyFile seen to clone there, so
/// leave it to CopyFile), and classifies the filesystem's exceptions into the engine's answers.
/// </summary>
internal sealed class CopyOnWriteFilesystemCloner : IFileCloner
{
    private readonly ICopyOnWriteFilesystem _filesystem;
    private readonly Func<string, string> _volumeOf;
    private readonly Func<string, string, bool> _copyFileClones;
    private readonly Action _forgetVolumes;

    /// <summary>For a filesystem that does not name volumes itself: volumes are drive roots.</summary>
    public CopyOnWriteFilesystemCloner(ICopyOnWriteFilesystem filesystem)
        : this(filesystem, path => Path.GetPathRoot(Path.GetFullPath(path))?.ToUpperInvariant() ?? string.Empty, copyFileClones: (_, _) => false, forgetVolumes: () => { })
    {
    }

    /// <param name="volumeOf">The key of the volume holding a path.</param>
    /// <param name="copyFileClones">Given a source and a destination, whether Windows' CopyFile was seen to clone on their volume.</param>
    /// <param name="forgetVolumes">Forgets the volume keys and capabilities <paramref name="volumeOf"/> has cached.</param>
    public CopyOnWriteFilesystemCloner(ICopyOnWriteFilesystem filesystem, Func<string, string> volumeOf, Func<string, string, bool> copyFileClones, Action forgetVolumes)
    {
        _forgetVolumes = forgetVolumes;
        _filesystem = filesystem;
        _volumeOf = volumeOf;
        _copyFileClones = copyFileClones;
    }

    /// <summary>The cloner for this machine: CloneCopy's own block-clone filesystem over the real kernel32.</summary>
    public static CopyOnWriteFilesystemCloner ForThisMachine() => For(Kernel32Calls.Instance);

    /// <summary>The cloner over any kernel (tests script one).</summary>
    public static CopyOnWriteFilesystemCloner For(IKernel32 kernel, long chunkSize = WindowsBlockCloneFilesystem.DefaultChunkSize)
    {
        var filesystem = new WindowsBlockCloneFilesystem(kernel, chunkSize);
        var probe = new CopyFileCloneProbe(kernel);
        return new CopyOnWriteFilesystemCloner(
            filesystem,
            filesystem.Volumes.KeyOf,
            (_, destination) => probe.ClonesOn(filesystem.Volumes.KeyOf(destination), Path.GetDirectoryName(destination) ?? destination),
            () =>
            {
                filesystem.Volumes.Forget();
                probe.Forget();
            });
    }

    /// <summary>A block clone (FSCTL_DUPLICATE_EXTENTS_TO_FILE) carries data only.</summary>
    public bool ClonesKeepMetadata => false;

    public string VolumeOf(string path) => _volumeOf(path);

    public void ForgetVolumes() => _forgetVolumes();

    public NotClonedReason ProbeVolumes(string source, string destination)
    {
        if (!string.Equals(VolumeOf(source), VolumeOf(destination), StringComparison.OrdinalIgnoreCase))
        {
            return NotClonedReason.DifferentVolumes;
        }

        if (!_filesystem.CopyOnWriteLinkSupportedBetweenPaths(source, destination))
        {
            return NotClonedReason.FilesystemCannotClone;
        }

        // Where CopyFile itself clones (checked once per volume), it is faster for small files than a block clone
        // of our own (the CopyOnWrite library's benchmarks) and MSBuild's Copy uses it: leave the file to it.
        return _copyFileClones(source, destination) ? NotClonedReason.CopyFileClonesHere : NotClonedReason.None;
    }

    public CloneAttempt Clone(string source, string destination, CancellationToken cancellation)
    {
        try
        {
            _filesystem.CloneFile(source, destination, cancellation);
            return CloneAttempt.Cloned;
        }
        catch (MaxCloneFileLinksExceededException e)
        {
            return CloneAttempt.LinkLimit(e.Message);
        }
        catch (CarriesMoreThanDataException e)
        {
            return CloneAttempt.LeftToPlatformCopy(NotClonedReason.CarriesMoreThanData, e.Message);
        }
        catch (VolumeCannotCloneException e)
        {
            // The volume said it refcounts blocks, the FSCTL says it is not implemented (a filter driver, an
            // emulation layer): remember it for the volume.
            return CloneAttempt.ImpossibleHere(NotClonedReason.FilesystemCannotClone, e.Message);
        }
        catch (IOException e) when (IsRealError(Win32.ErrorOf(e.HResult)))
        {
            throw; // no space, no quota: File.Copy would fail too; MSBuild's retries and codes report it
        }
        catch (IOException e)
        {
            return Classify(Win32.ErrorOf(e.HResult), e.Message);
        }
        catch (UnauthorizedAccessException e)
        {
            // An implementation that words access denied this way: File.Copy then gives MSBuild's own error.
            return CloneAttempt.NotNow(e.Message);
        }
    }

    private static bool IsRealError(int error) =>
        error is Win32.ErrorDiskFull or Win32.ErrorHandleDiskFull or Win32.ErrorDiskQuotaExceeded;

    private static CloneAttempt Classify(int error, string message) => error switch
    {
        // Only MSBuild's rules may replace an existing destination: File.Copy does, with its own checks.
        Win32.ErrorFileExists or Win32.ErrorAlreadyExists => CloneAttempt.DestinationExists(message),

        Win32.ErrorNotSameDevice => CloneAttempt.ImpossibleHere(NotClonedReason.DifferentVolumes, message),

        // ERROR_NOT_SUPPORTED (STATUS_NOT_SUPPORTED: per file in MS-FSCC 2.3.8, e.g. a sparse source into a
        // non-sparse target), ERROR_INVALID_FUNCTION from any step but the clone itself (a query this volume
        // does not answer), a sharing violation, access denied, an integrity or alignment refusal: copy this
        // file, try the next. File.Copy then reports a real problem with .NET's own words.
        _ => CloneAttempt.NotNow(message),
    };
}
