using System.IO;
using System.Threading;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// The Windows block-clone filesystem, in the shape of the CopyOnWrite package's interface of the same
/// name (CopyOnWriteLinkSupportedBetweenPaths, CloneFile, MaxClonesPerFile). The package itself is not
/// served by this project's registry, so CloneCopy ships its own implementation
/// (<see cref="WindowsBlockCloneFilesystem"/>); the interface is the seam tests fake, and where an adapter
/// to the package would plug in (it would ignore the cancellation token).
/// </summary>
internal interface ICopyOnWriteFilesystem
{
    /// <summary>ReFS and Dev Drive allow 8175 references to one block.</summary>
    int MaxClonesPerFile { get; }

    /// <summary>True when both paths are on one volume that supports block cloning. May throw when a volume cannot be queried.</summary>
    bool CopyOnWriteLinkSupportedBetweenPaths(string source, string destination);

    /// <summary>
    /// Clones the whole source to a new destination. Throws <see cref="MaxCloneFileLinksExceededException"/>
    /// at the reference limit, other <see cref="IOException"/>s (with the Win32 error in the HRESULT) for the
    /// rest, and leaves no destination behind when it throws.
    /// </summary>
    void CloneFile(string source, string destination, CancellationToken cancellation);
}

/// <summary>ERROR_BLOCK_TOO_MANY_REFERENCES (347): a block of the source has reached the reference limit.</summary>
internal sealed class MaxCloneFileLinksExceededException : IOException
{
    public MaxCloneFileLinksExceededException(string message)
        : base(message, Win32.HResultOf(Win32.ErrorBlockTooManyReferences))
    {
    }
}

/// <summary>
/// The volume cannot duplicate extents at all: FSCTL_DUPLICATE_EXTENTS_TO_FILE answered
/// STATUS_INVALID_DEVICE_REQUEST (ERROR_INVALID_FUNCTION), which MS-FSA 2.1.5.10.4 reserves for an object
/// store that does not implement the FSCTL. Only this answer condemns the volume; every other refusal is
/// about one file (MS-FSCC 2.3.8 lists STATUS_NOT_SUPPORTED for per-file conditions).
/// </summary>
internal sealed class VolumeCannotCloneException : IOException
{
    public VolumeCannotCloneException(string message, int error)
        : base(message, Win32.HResultOf(error))
    {
    }
}

/// <summary>
/// The source has named data streams or extended attributes: a block clone would carry its unnamed data
/// stream only, where CopyFile copies them all (the Mark of the Web included), so the file is left to CopyFile.
/// </summary>
internal sealed class CarriesMoreThanDataException : IOException
{
    public CarriesMoreThanDataException(string message)
        : base(message)
    {
    }
}
