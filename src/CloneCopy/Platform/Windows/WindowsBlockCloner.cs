using System;
using System.IO;
using System.Threading;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Block cloning on ReFS and Dev Drive with FSCTL_DUPLICATE_EXTENTS_TO_FILE. Every call into the system
/// goes through <see cref="IKernel32"/>; the steps are this class's own:
/// the destination is created new (never an existing file replaced), made sparse before its end of file
/// is set (so no clusters are allocated only to be released by the clone), given the source's
/// integrity-stream setting while it is still empty (ReFS refuses clones between files whose settings
/// differ), sized, cloned in cluster-aligned chunks under 4 GiB, and finally given the source's
/// sparseness. On any failure or cancellation the half-made destination is deleted: it is marked
/// delete-on-close as soon as it exists, and the mark is cleared only when the clone is complete. Timestamps and
/// attributes are the caller's (ClonerTransfer gives them as File.Copy would).
/// </summary>
internal sealed class WindowsBlockCloneFilesystem : ICopyOnWriteFilesystem
{
    /// <summary>Bytes per FSCTL call: under the 4 GiB limit, and a multiple of every cluster size.</summary>
    public const long DefaultChunkSize = 1L << 30;

    private readonly IKernel32 _kernel;
    private readonly long _chunkSize;

    /// <param name="chunkSize">Tests make it small to see chunking with small files.</param>
    public WindowsBlockCloneFilesystem(IKernel32 kernel, long chunkSize = DefaultChunkSize)
    {
        _kernel = kernel;
        _chunkSize = chunkSize;
        Volumes = new WindowsVolumes(kernel);
    }

    public WindowsVolumes Volumes { get; }

    public int MaxClonesPerFile => 8175;

    public bool CopyOnWriteLinkSupportedBetweenPaths(string source, string destination)
    {
        string key = Volumes.KeyOf(source);
        return string.Equals(key, Volumes.KeyOf(destination), StringComparison.OrdinalIgnoreCase) && Volumes.CapabilityOf(key).CanBlockClone;
    }

    public void CloneFile(string source, string destination, CancellationToken cancellation)
    {
        VolumeCapability volume = Volumes.CapabilityOf(Volumes.KeyOf(destination));
        if (!volume.CanBlockClone)
        {
            throw new VolumeCannotCloneException($"{Win32.Describe(Win32.ErrorInvalidFunction)} : '{destination}'", Win32.ErrorInvalidFunction);
        }

        // Shared as CopyFile shares its source (read, write and delete): a file another process has open for
        // writing is cloned where CopyFile would copy it, not refused with a sharing violation.
        using SafeFileHandle from = Open(source, Win32.GenericRead, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal);
        Check(_kernel.GetFileInformation(from, out Win32FileInformation sourceInfo), source);
        RefuseWhatACloneWouldDrop(from, source);
        SafeFileHandle to = Open(destination, Win32.GenericRead | Win32.GenericWrite | Win32.Delete, Win32.FileShareDelete, Win32.CreateNew, Win32.FileAttributeNormal);

        // We created it (CreateNew): until it is a whole clone it must not survive as a full-length file newer
        // than its source. Marked delete-on-close on our own handle (which has DELETE access), it goes away when
        // the last handle closes, even one a scanner opened on it meanwhile, where a later DeleteFile by name
        // would fail. The mark is cleared only once the clone is complete.
        bool deletesOnClose = _kernel.SetDeleteOnClose(to, true) == 0;
        bool complete = false;
        try
        {
            Check(_kernel.SetSparse(to, true), destination);
            CopyIntegritySetting(from, to, destination);
            Check(_kernel.SetEndOfFile(to, sourceInfo.Length), destination);
            CloneRanges(from, to, sourceInfo.Length, volume.ClusterSize, destination, cancellation);
            if ((sourceInfo.Attributes & Win32.FileAttributeSparseFile) == 0)
            {
                Check(_kernel.SetSparse(to, false), destination);
            }

            if (deletesOnClose)
            {
                Check(_kernel.SetDeleteOnClose(to, false), destination);
            }

            complete = true;
        }
        finally
        {
            _kernel.CloseHandle(to);
            if (!complete && !deletesOnClose)
            {
                // A filesystem that refused the disposition: delete by name, the best left.
                _kernel.DeleteFile(destination);
            }
        }
    }

    /// <summary>
    /// A block clone duplicates the extents of the one stream it is sent on (MS-FSA 2.1.5.10.4 operates on "an
    /// Open of a DataStream"); CopyFile also copies named streams and extended attributes (dotnet/runtime #88695
    /// and the CopyOnWrite library's issue 24 reach the same rule). Such a source is left to CopyFile. When the
    /// system cannot say (the query fails), the file is left to CopyFile too: a copy loses nothing.
    /// </summary>
    private void RefuseWhatACloneWouldDrop(SafeFileHandle from, string source)
    {
        // ERROR_HANDLE_EOF: no streams at all. ERROR_INVALID_FUNCTION: the filesystem does not enumerate streams
        // (STATUS_INVALID_DEVICE_REQUEST), so it has no named ones to lose; Wine 8 answers so, NTFS and ReFS list them.
        int error = _kernel.GetStreamNames(from, out string[] streams);
        bool onlyUnnamedData = error is Win32.ErrorHandleEof or Win32.ErrorInvalidFunction || (error == 0 && Array.TrueForAll(streams, s => s == "::$DATA"));
        if (!onlyUnnamedData)
        {
            throw new CarriesMoreThanDataException(error == 0
                ? $"'{source}' has named streams ({string.Join(", ", Array.FindAll(streams, s => s != "::$DATA"))}), which a clone would drop"
                : $"Cannot list the streams of '{source}': {Win32.Describe(error)}");
        }

        error = _kernel.GetExtendedAttributesSize(from, out uint extendedAttributes);
        if (error != 0 || extendedAttributes != 0)
        {
            throw new CarriesMoreThanDataException(error == 0
                ? $"'{source}' has extended attributes ({extendedAttributes} bytes), which a clone would drop"
                : $"Cannot read the extended attributes of '{source}': {Win32.Describe(error)}");
        }
    }

    /// <summary>The clone itself: the length rounded up to whole clusters, in chunks the FSCTL accepts.</summary>
    private void CloneRanges(SafeFileHandle from, SafeFileHandle to, long length, long clusterSize, string destination, CancellationToken cancellation)
    {
        clusterSize = Math.Max(clusterSize, 1); // a volume that reported no geometry: the FSCTL will judge the alignment
        long rounded = (length + clusterSize - 1) / clusterSize * clusterSize;
        long chunk = Math.Max(clusterSize, _chunkSize / clusterSize * clusterSize);
        for (long offset = 0; offset < rounded; offset += chunk)
        {
            cancellation.ThrowIfCancellationRequested();
            int error = _kernel.DuplicateExtents(from, to, offset, offset, Math.Min(chunk, rounded - offset));
            if (error == Win32.ErrorInvalidFunction)
            {
                // STATUS_INVALID_DEVICE_REQUEST: this filesystem does not implement the FSCTL (MS-FSA 2.1.5.10.4).
                throw new VolumeCannotCloneException($"{Win32.Describe(error)} : '{destination}'", error);
            }

            Check(error, destination);
        }
    }

    /// <summary>
    /// Gives the empty destination the source's integrity-stream setting. A volume without integrity
    /// streams (not ReFS) answers the query with an error: then there is nothing to match.
    /// </summary>
    private void CopyIntegritySetting(SafeFileHandle from, SafeFileHandle to, string destination)
    {
        if (_kernel.GetIntegrityInformation(from, out IntegrityInformation integrity) == 0)
        {
            Check(_kernel.SetIntegrityInformation(to, integrity), destination);
        }
    }

    private SafeFileHandle Open(string path, uint access, uint share, uint disposition, uint flags)
    {
        Check(_kernel.CreateFile(path, access, share, disposition, flags, out SafeFileHandle handle), path);
        return handle;
    }

    private static void Check(int error, string path)
    {
        if (error != 0)
        {
            throw Failure(error, path);
        }
    }

    /// <summary>An IOException as .NET words one ("message : 'path'"), with the Win32 error in its HRESULT.</summary>
    private static IOException Failure(int error, string path)
    {
        string message = $"{Win32.Describe(error)} : '{path}'";
        return error == Win32.ErrorBlockTooManyReferences
            ? new MaxCloneFileLinksExceededException(message)
            : new IOException(message, Win32.HResultOf(error));
    }
}
