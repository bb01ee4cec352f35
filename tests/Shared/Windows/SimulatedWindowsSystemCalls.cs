using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using CloneCopy.Platform.Windows;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// A Win32 kernel simulated over real files, so the Windows engine's own steps run on Linux (and under Wine)
/// against scripted answers. Files are real (created, sized, written, deleted); volumes, sparseness,
/// integrity streams and block cloning are simulated, with the rules ReFS documents: a clone needs one
/// volume that refcounts blocks, cluster-aligned ranges under 4 GiB inside the destination's end of file,
/// the same integrity setting on both files, and a sparse destination for a sparse source. A non-sparse
/// file allocates its whole length when its end of file is set (sparse ones allocate nothing).
/// Each rule cites the Microsoft document it models (MS-FSCC, MS-FSA, the Win32 API pages, the Block
/// Cloning page); where a document names no error code, the comment says which one is modelled and why.
/// This is a model, not Windows: it proves the engine's steps and decisions.
/// Every call is recorded in <see cref="Calls"/>; <see cref="Fault"/> can make any call fail.
/// </summary>
internal sealed class SimulatedWindowsSystemCalls : IWindowsSystemCalls
{
    private const long FourGiB = 4L << 30;
    private readonly List<SimulatedVolume> _volumes = new();
    private readonly Dictionary<string, string> _dosDevices = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<SafeFileHandle, string> _openPaths = new(ReferenceEqualityComparer.Instance);
    private readonly Dictionary<string, FileState> _files = new(StringComparer.OrdinalIgnoreCase);
    private readonly HashSet<SafeFileHandle> _deleteOnClose = new(ReferenceEqualityComparer.Instance);
    private readonly List<OpenFile> _opens = new();
    private long _directoryHandles = 0x10000;
    private long _clusters = 1000;

    /// <summary>"Name subject [details]" for every call, in order.</summary>
    public List<string> Calls { get; } = new();

    /// <summary>Given a call's name and subject (path or volume), an error code to answer instead, or 0.</summary>
    public Func<string, string, int> Fault { get; set; } = (_, _) => 0;

    /// <summary>False: a clone records its ranges but moves no bytes (for multi-gigabyte sparse files).</summary>
    public bool CopyData { get; set; } = true;

    /// <summary>The Windows build CreateSymbolicLink behaves as (older builds refuse the unprivileged flag).</summary>
    public int OsBuild { get; set; } = 22631;

    /// <param name="name">The volume GUID path; null for a share, which has none and is named by its mount point.</param>
    public SimulatedVolume AddVolume(string mountPath, string? name, string fileSystem = "ReFS", bool blockRefcounting = true, long clusterSize = 4096)
    {
        var volume = new SimulatedVolume(mountPath, name, fileSystem, blockRefcounting, clusterSize, (uint)(0x1000 + _volumes.Count));
        _volumes.Add(volume);
        return volume;
    }

    /// <summary>A subst drive: <paramref name="drive"/> ("S:") stands for <paramref name="folder"/>.</summary>
    public void AddSubst(string drive, string folder) => _dosDevices[drive] = @"\??\" + folder;

    public void MarkSparse(string path) => State(path).Sparse = true;

    /// <summary>Gives the file a named data stream (":Zone.Identifier:$DATA", the Mark of the Web).</summary>
    public void AddNamedStream(string path, string name) => State(path).NamedStreams.Add(name);

    /// <summary>Gives the file extended attributes of this many bytes (FILE_EA_INFORMATION.EaSize).</summary>
    public void SetExtendedAttributesSize(string path, uint size) => State(path).ExtendedAttributesSize = size;

    public void SetIntegrity(string path, IntegrityInformation integrity) => State(path).Integrity = integrity;

    public bool IsSparse(string path) => State(path).Sparse;

    public IntegrityInformation IntegrityOf(string path) => State(path).Integrity;

    public IEnumerable<string> CallsTo(string name) => Calls.Where(c => c.StartsWith(name + " ", StringComparison.Ordinal));

    public int GetVolumePathName(string path, out string volumePath)
    {
        volumePath = string.Empty;
        int fault = Record("GetVolumePathName", path);
        if (fault != 0)
        {
            return fault;
        }

        // GetVolumePathNameW (learn.microsoft.com/windows/win32/api/fileapi/nf-fileapi-getvolumepathnamew): "the
        // longest prefix that represents a volume": mount points (and here subst drives) count, junctions and
        // directory links in the path are not followed.
        const string LongPrefix = @"\\?\";
        string plain = path.StartsWith(LongPrefix, StringComparison.Ordinal) ? path.Substring(LongPrefix.Length) : path;
        string? best = _volumes.Select(v => v.MountPath)
            .Concat(_dosDevices.Keys.Select(d => d + @"\"))
            .Where(m => plain.StartsWith(m, StringComparison.OrdinalIgnoreCase) || (plain + Path.DirectorySeparatorChar).Equals(m, StringComparison.OrdinalIgnoreCase))
            .OrderByDescending(m => m.Length)
            .FirstOrDefault();
        if (best is null)
        {
            return Win32.ErrorPathNotFound;
        }

        volumePath = ReferenceEquals(plain, path) ? best : LongPrefix + best;
        return 0;
    }

    public int GetVolumeNameForVolumeMountPoint(string volumeMountPoint, out string volumeName)
    {
        volumeName = string.Empty;
        int fault = Record("GetVolumeNameForVolumeMountPoint", volumeMountPoint);
        if (fault != 0)
        {
            return fault;
        }

        SimulatedVolume? volume = _volumes.FirstOrDefault(v => v.Name is not null && v.MountPath.Equals(volumeMountPoint, StringComparison.OrdinalIgnoreCase));
        if (volume is null)
        {
            // Wine answers \\?\C:\ with ERROR_NOT_A_REPARSE_POINT (4390); a subst root is no mount point.
            return volumeMountPoint.StartsWith(@"\\?\", StringComparison.Ordinal) ? 4390 : Win32.ErrorInvalidParameter;
        }

        volumeName = volume.Name!;
        return 0;
    }

    public int QueryDosDevice(string deviceName, out string target)
    {
        int fault = Record("QueryDosDevice", deviceName);
        target = fault == 0 && _dosDevices.TryGetValue(deviceName, out string? mapped) ? mapped : string.Empty;
        return fault != 0 ? fault : target.Length > 0 ? 0 : Win32.ErrorFileNotFound;
    }

    public int GetVolumeInformation(string rootPath, out uint serialNumber, out uint fileSystemFlags, out string fileSystemName)
    {
        (serialNumber, fileSystemFlags, fileSystemName) = (0, 0, string.Empty);
        int fault = Record("GetVolumeInformation", rootPath);
        if (fault != 0)
        {
            return fault;
        }

        SimulatedVolume? volume = VolumeByRoot(rootPath);
        if (volume is null)
        {
            return Win32.ErrorPathNotFound;
        }

        const uint CasePreservedUnicodeAcls = 0x2 | 0x4 | 0x8;
        (serialNumber, fileSystemFlags, fileSystemName) = (volume.Serial, CasePreservedUnicodeAcls | (volume.BlockRefcounting ? Win32.FileSupportsBlockRefcounting : 0), volume.FileSystem);
        return 0;
    }

    public int GetDiskFreeSpace(string rootPath, out uint sectorsPerCluster, out uint bytesPerSector)
    {
        (sectorsPerCluster, bytesPerSector) = (0, 0);
        int fault = Record("GetDiskFreeSpace", rootPath);
        if (fault != 0)
        {
            return fault;
        }

        SimulatedVolume? volume = VolumeByRoot(rootPath);
        if (volume is null)
        {
            return Win32.ErrorPathNotFound;
        }

        (sectorsPerCluster, bytesPerSector) = ((uint)(volume.ClusterSize / 512), 512);
        return 0;
    }

    public int CreateFile(string path, uint desiredAccess, uint shareMode, uint creationDisposition, uint flagsAndAttributes, out SafeFileHandle handle)
    {
        handle = new SafeFileHandle(IntPtr.Zero, ownsHandle: false);
        int fault = Record("CreateFile", path, creationDisposition == Win32.CreateNew ? "CreateNew" : "OpenExisting");
        if (fault != 0)
        {
            return fault;
        }

        bool create = creationDisposition == Win32.CreateNew;
        if (create && (File.Exists(path) || Directory.Exists(path)))
        {
            return Win32.ErrorFileExists;
        }

        // CreateFile opens a directory only with FILE_FLAG_BACKUP_SEMANTICS (CreateFileW, "Directories"). The host
        // cannot open one as a file: the handle is a token the simulator knows by its path.
        if (!create && Directory.Exists(path))
        {
            if ((flagsAndAttributes & Win32.FileFlagBackupSemantics) == 0)
            {
                return Win32.ErrorAccessDenied;
            }

            handle = new SafeFileHandle(checked((IntPtr)System.Threading.Interlocked.Increment(ref _directoryHandles)), ownsHandle: false);
            _openPaths[handle] = Path.GetFullPath(path);
            return 0;
        }

        if (SharingConflict(Path.GetFullPath(path), desiredAccess, shareMode))
        {
            return Win32.ErrorSharingViolation;
        }

        try
        {
            FileAccess access = (desiredAccess & Win32.GenericWrite) != 0 ? FileAccess.ReadWrite : FileAccess.Read;
            handle = File.OpenHandle(path, create ? FileMode.CreateNew : FileMode.Open, access, FileShare.ReadWrite | FileShare.Delete);
        }
        catch (FileNotFoundException)
        {
            return Win32.ErrorFileNotFound;
        }
        catch (DirectoryNotFoundException)
        {
            return Win32.ErrorPathNotFound;
        }
        catch (UnauthorizedAccessException)
        {
            return Win32.ErrorAccessDenied;
        }
        catch (IOException)
        {
            return Win32.ErrorSharingViolation;
        }

        string full = Path.GetFullPath(path);
        _openPaths[handle] = full;
        _opens.Add(new OpenFile(handle, full, desiredAccess, shareMode));
        if (create)
        {
            _files[full] = new FileState { Integrity = VolumeOf(full)?.DefaultIntegrity ?? default };
        }

        return 0;
    }

    public int GetFileInformation(SafeFileHandle file, out Win32FileInformation information)
    {
        information = default;
        string path = _openPaths[file];
        int fault = Record("GetFileInformation", path);
        if (fault != 0)
        {
            return fault;
        }

        RealFileIds.Id id = RealFileIds.Read(path, followLinks: true) ?? throw new FileNotFoundException(path);
        uint attributes = (uint)File.GetAttributes(path) & 0x27; // read-only, hidden, system, archive
        if (State(path).Sparse)
        {
            attributes |= Win32.FileAttributeSparseFile;
        }

        information = new Win32FileInformation(attributes == 0 ? Win32.FileAttributeNormal : attributes, VolumeOf(path)?.Serial ?? 0, id.Inode, id.Links, RandomAccess.GetLength(file));
        return 0;
    }

    public int GetFileId(SafeFileHandle file, out Win32FileId id)
    {
        id = default;
        string path = _openPaths[file];
        int fault = Record("GetFileId", path);
        if (fault != 0)
        {
            return fault;
        }

        RealFileIds.Id real = RealFileIds.Read(path, followLinks: true) ?? throw new FileNotFoundException(path);
        id = new Win32FileId(real.Device, real.Inode, 0);
        return 0;
    }

    // GetFileInformationByHandleEx(FileStreamInfo) (learn.microsoft.com/windows/win32/api/winbase/ns-winbase-file_stream_info;
    // MS-FSCC 2.4.49 FileStreamInformation): every data stream by name, the unnamed one as "::$DATA".
    public int GetStreamNames(SafeFileHandle file, out string[] names)
    {
        string path = _openPaths[file];
        int fault = Record("GetStreamNames", path);
        names = fault == 0 ? new[] { "::$DATA" }.Concat(State(path).NamedStreams.Select(n => $":{n}:$DATA")).ToArray() : Array.Empty<string>();
        return fault;
    }

    // NtQueryInformationFile(FileEaInformation) (MS-FSCC 2.4.13 FileEaInformation): EaSize, 0 when the file has none.
    public int GetExtendedAttributesSize(SafeFileHandle file, out uint size)
    {
        string path = _openPaths[file];
        int fault = Record("GetExtendedAttributesSize", path);
        size = fault == 0 ? State(path).ExtendedAttributesSize : 0;
        return fault;
    }

    public int GetFinalPathName(SafeFileHandle file, out string path)
    {
        path = string.Empty;
        string opened = _openPaths[file];
        int fault = Record("GetFinalPathName", opened);
        if (fault != 0)
        {
            return fault;
        }

        path = RealFileIds.FinalPath(opened);
        return 0;
    }

    public int SetSparse(SafeFileHandle file, bool sparse)
    {
        string path = _openPaths[file];
        int fault = Record("SetSparse", path, sparse.ToString());
        if (fault == 0)
        {
            State(path).Sparse = sparse;
        }

        return fault;
    }

    public int GetIntegrityInformation(SafeFileHandle file, out IntegrityInformation information)
    {
        information = default;
        string path = _openPaths[file];
        int fault = Record("GetIntegrityInformation", path);
        if (fault != 0)
        {
            return fault;
        }

        if (VolumeOf(path)?.FileSystem != "ReFS")
        {
            return Win32.ErrorInvalidFunction; // MS-FSCC 2.3.52 (FSCTL_GET_INTEGRITY_INFORMATION reply): STATUS_INVALID_DEVICE_REQUEST where the volume has no integrity streams
        }

        information = State(path).Integrity;
        return 0;
    }

    public int SetIntegrityInformation(SafeFileHandle file, IntegrityInformation information)
    {
        string path = _openPaths[file];
        int fault = Record("SetIntegrityInformation", path, $"{information.ChecksumAlgorithm}");
        if (fault != 0)
        {
            return fault;
        }

        if (VolumeOf(path)?.FileSystem != "ReFS")
        {
            return Win32.ErrorInvalidFunction;
        }

        if (RandomAccess.GetLength(file) != 0)
        {
            return Win32.ErrorInvalidParameter; // FSCTL_SET_INTEGRITY_INFORMATION page: the setting changes only on an empty file; the code is not documented
        }

        State(path).Integrity = information;
        return 0;
    }

    public int SetEndOfFile(SafeFileHandle file, long length)
    {
        string path = _openPaths[file];
        int fault = Record("SetEndOfFile", path, $"{length}");
        if (fault != 0)
        {
            return fault;
        }

        SimulatedVolume? volume = VolumeOf(path);
        if (!State(path).Sparse && volume is not null && length > volume.FreeBytes)
        {
            return Win32.ErrorDiskFull; // a non-sparse file gets real clusters for its whole length (MS-FSA 2.1.5.15.4, FileEndOfFileInformation); sparse ones allocate none
        }

        RandomAccess.SetLength(file, length);
        return 0;
    }

    public int DuplicateExtents(SafeFileHandle source, SafeFileHandle destination, long sourceOffset, long destinationOffset, long byteCount)
    {
        string from = _openPaths[source];
        string to = _openPaths[destination];
        int fault = Record("DuplicateExtents", to, $"{sourceOffset} {destinationOffset} {byteCount}");
        if (fault != 0)
        {
            return fault;
        }

        // MS-FSA 2.1.5.10.4: "If the object store does not implement this functionality, the operation MUST be
        // failed with STATUS_INVALID_DEVICE_REQUEST" (ERROR_INVALID_FUNCTION). A volume without block
        // refcounting (NTFS) is such an object store.
        SimulatedVolume? volume = VolumeOf(to);
        if (volume is not null && !volume.BlockRefcounting)
        {
            return Win32.ErrorInvalidFunction;
        }

        // MS-FSCC 2.3.8: STATUS_INVALID_PARAMETER when "the FileHandle parameter ... does not represent a handle
        // to an opened file on the same volume" (ERROR_INVALID_PARAMETER, not ERROR_NOT_SAME_DEVICE).
        if (volume is null || !ReferenceEquals(volume, VolumeOf(from)))
        {
            return Win32.ErrorInvalidParameter;
        }

        // MS-FSCC 2.3.7.1 / 2.3.9.1: offsets and ByteCount "MUST be aligned to a logical cluster boundary";
        // Block Cloning (learn.microsoft.com/windows-server/storage/refs/block-cloning): one call clones less
        // than 4 GiB, and the target's end of file must already cover the range. Not one of MS-FSCC's listed
        // codes: modelled as STATUS_INVALID_PARAMETER.
        long cluster = volume.ClusterSize;
        long destinationLength = RandomAccess.GetLength(destination);
        long destinationClusters = (destinationLength + cluster - 1) / cluster * cluster;
        bool aligned = sourceOffset % cluster == 0 && destinationOffset % cluster == 0 && byteCount % cluster == 0;
        if (!aligned || byteCount <= 0 || byteCount >= FourGiB || destinationOffset + byteCount > destinationClusters)
        {
            return Win32.ErrorInvalidParameter;
        }

        // MS-FSCC 2.3.8: STATUS_NOT_SUPPORTED (ERROR_NOT_SUPPORTED) when the "source file is sparse, while target
        // is a non-sparse file", when source and target ranges overlap in one file, and when the source range
        // lies beyond the source's allocation: all about this file, not the volume.
        long sourceAllocation = (RandomAccess.GetLength(source) + cluster - 1) / cluster * cluster;
        bool overlap = string.Equals(from, to, StringComparison.OrdinalIgnoreCase) && sourceOffset < destinationOffset + byteCount && destinationOffset < sourceOffset + byteCount;
        if ((State(from).Sparse && !State(to).Sparse) || overlap || sourceOffset + byteCount > sourceAllocation)
        {
            return Win32.ErrorNotSupported;
        }

        // Block Cloning: "the source and destination files must have the same integrity stream setting" (ReFS).
        // The code is not documented; modelled as STATUS_INVALID_PARAMETER, which the engine treats per file.
        if (State(from).Integrity != State(to).Integrity)
        {
            return Win32.ErrorInvalidParameter;
        }

        if (destinationOffset == 0)
        {
            State(to).FirstCluster = State(from).FirstCluster;
        }

        if (CopyData)
        {
            long sourceLength = RandomAccess.GetLength(source);
            int count = (int)Math.Max(0, Math.Min(byteCount, Math.Min(sourceLength - sourceOffset, destinationLength - destinationOffset)));
            var buffer = new byte[count];
            int read = RandomAccess.Read(source, buffer, sourceOffset);
            RandomAccess.Write(destination, buffer.AsSpan(0, read), destinationOffset);
        }

        return 0;
    }

    // SetFileInformationByHandle, FILE_DISPOSITION_INFO (learn.microsoft.com/windows/win32/api/winbase/ns-winbase-file_disposition_info):
    // "Indicates whether the file should be deleted"; the handle needs DELETE access (MS-FSA 2.1.5.15.3,
    // FileDispositionInformation: STATUS_ACCESS_DENIED without it); FALSE cancels a pending delete.
    public int SetDeleteOnClose(SafeFileHandle file, bool delete)
    {
        string path = _openPaths[file];
        int fault = Record("SetDeleteOnClose", path, delete.ToString());
        if (fault != 0)
        {
            return fault;
        }

        if (delete)
        {
            _deleteOnClose.Add(file);
        }
        else
        {
            _deleteOnClose.Remove(file);
        }

        return 0;
    }

    // The file of a handle marked for deletion is deleted when the last handle to it closes (MS-FSA 2.1.5.4,
    // Server Requests Closing an Open: "If Open.Stream.File.PendingDelete ... and this is the last open").
    // Here the engine's handle is taken to be the last one: a scanner's handle closes in its own time.
    public void CloseHandle(SafeFileHandle file)
    {
        if (!_openPaths.TryGetValue(file, out string? path))
        {
            file.Dispose(); // the handle of a failed open: nothing was opened
            return;
        }

        Record("CloseHandle", path);
        file.Dispose();
        if (_deleteOnClose.Remove(file) && File.Exists(path))
        {
            File.Delete(path);
            _files.Remove(Path.GetFullPath(path));
        }
    }

    // CopyFileW (learn.microsoft.com/windows/win32/api/winbase/nf-winbase-copyfilew), bFailIfExists TRUE:
    // ERROR_FILE_EXISTS for an existing target. Where the volume's CopyFile clones (the Block Cloning page: "block
    // cloning occurs natively in supported Windows copy operations" from the Moment 5 update, on ReFS and Dev
    // Drive), the copy shares the source's clusters; elsewhere it gets clusters of its own.
    public int CopyFile(string source, string destination)
    {
        int fault = Record("CopyFile", destination);
        if (fault != 0)
        {
            return fault;
        }

        if (File.Exists(destination))
        {
            return Win32.ErrorFileExists;
        }

        File.Copy(source, destination);
        SimulatedVolume? volume = VolumeOf(Path.GetFullPath(destination));
        bool clones = volume is { CopyFileClones: true, BlockRefcounting: true } && ReferenceEquals(volume, VolumeOf(Path.GetFullPath(source)));
        State(destination).FirstCluster = clones ? State(source).FirstCluster : NextCluster();
        return 0;
    }

    // FSCTL_GET_RETRIEVAL_POINTERS (learn.microsoft.com/windows/win32/api/winioctl/ni-winioctl-fsctl_get_retrieval_pointers):
    // the LCN of each extent; the simulator knows one per file, shared by clones (the Block Cloning page: a clone
    // remaps the destination's logical clusters onto the source's).
    public int GetFirstCluster(SafeFileHandle file, out long logicalCluster)
    {
        string path = _openPaths[file];
        int fault = Record("GetFirstCluster", path);
        logicalCluster = fault == 0 ? State(path).FirstCluster : -1;
        return fault;
    }

    private long NextCluster() => System.Threading.Interlocked.Increment(ref _clusters);

    public int DeleteFile(string path)
    {
        int fault = Record("DeleteFile", path);
        if (fault != 0)
        {
            return fault;
        }

        if (!File.Exists(path))
        {
            return Win32.ErrorFileNotFound;
        }

        File.Delete(path);
        _files.Remove(Path.GetFullPath(path));
        return 0;
    }

    public int CreateSymbolicLink(string linkPath, string targetPath, uint flags)
    {
        int fault = Record("CreateSymbolicLink", linkPath, $"{flags}");
        if (fault != 0)
        {
            return fault;
        }

        if ((flags & Win32.SymbolicLinkFlagAllowUnprivilegedCreate) != 0 && OsBuild < 14972)
        {
            return Win32.ErrorInvalidParameter; // CreateSymbolicLinkW page: SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE from Windows 10 build 14972; older builds refuse unknown flags
        }

        File.CreateSymbolicLink(linkPath, targetPath);
        return 0;
    }

    public int CreateHardLink(string linkPath, string existingPath)
    {
        int fault = Record("CreateHardLink", linkPath);
        if (fault != 0)
        {
            return fault;
        }

        Infrastructure.FileSystemOps.HardLink(linkPath, existingPath);
        return 0;
    }

    /// <summary>
    /// CreateFile's share-mode rule (learn.microsoft.com/windows/win32/fileio/creating-and-opening-files, and
    /// MS-FSA 2.1.5.1.2.1, "Algorithm to Check Sharing Access to an Existing Stream or Directory"): an open fails
    /// with ERROR_SHARING_VIOLATION when it asks for read, write or delete access that an open handle does not
    /// share, or when it does not share an access an open handle already has. Access that is not read, write
    /// or delete (FILE_READ_ATTRIBUTES alone) takes part in neither test.
    /// </summary>
    private bool SharingConflict(string fullPath, uint desiredAccess, uint shareMode)
    {
        _opens.RemoveAll(o => o.Handle.IsClosed);
        uint wanted = SharingAccessOf(desiredAccess);
        if (wanted == 0)
        {
            return false;
        }

        foreach (OpenFile open in _opens)
        {
            if (!string.Equals(open.Path, fullPath, StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            // An open with neither read, write nor delete access is not counted in the file's share access at all,
            // so its own share mode restricts nobody (seen under Wine: FILE_READ_ATTRIBUTES with share 0, then a
            // reader, is allowed).
            uint held = SharingAccessOf(open.Access);
            if (held == 0)
            {
                continue;
            }

            if ((wanted & ~open.Share) != 0 || (held & ~shareMode) != 0)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The access an open asks for, in FILE_SHARE_* bits: read (GENERIC_READ), write (GENERIC_WRITE), delete (DELETE).</summary>
    private static uint SharingAccessOf(uint access) =>
        ((access & Win32.GenericRead) != 0 ? Win32.FileShareRead : 0)
        | ((access & Win32.GenericWrite) != 0 ? Win32.FileShareWrite : 0)
        | ((access & Win32.Delete) != 0 ? Win32.FileShareDelete : 0);

    private int Record(string name, string subject, string? details = null)
    {
        lock (Calls)
        {
            Calls.Add(details is null ? $"{name} {subject}" : $"{name} {subject} {details}");
        }

        return Fault(name, subject);
    }

    private FileState State(string path)
    {
        string full = Path.GetFullPath(path);
        if (!_files.TryGetValue(full, out FileState? state))
        {
            _files[full] = state = new FileState { Integrity = VolumeOf(full)?.DefaultIntegrity ?? default };
        }

        if (state.FirstCluster == 0)
        {
            state.FirstCluster = NextCluster(); // clusters of its own, until a clone shares another file's
        }

        return state;
    }

    /// <summary>
    /// The volume a file is on: the one its final path (junctions and links followed) lies in. Only
    /// GetVolumePathName works on the path as written (see there); the file system itself knows where a file is.
    /// </summary>
    private SimulatedVolume? VolumeOf(string fullPath) => VolumeByPrefix(File.Exists(fullPath) || Directory.Exists(fullPath) ? RealFileIds.FinalPath(fullPath) : fullPath);

    private SimulatedVolume? VolumeByPrefix(string fullPath) => _volumes
        .Where(v => fullPath.StartsWith(v.MountPath, StringComparison.OrdinalIgnoreCase))
        .OrderByDescending(v => v.MountPath.Length)
        .FirstOrDefault();

    private SimulatedVolume? VolumeByRoot(string root) => _volumes.FirstOrDefault(v =>
        string.Equals(v.Name, root, StringComparison.OrdinalIgnoreCase) || v.MountPath.Equals(root, StringComparison.OrdinalIgnoreCase));

    private sealed record OpenFile(SafeFileHandle Handle, string Path, uint Access, uint Share);

    private sealed class FileState
    {
        public bool Sparse { get; set; }

        public IntegrityInformation Integrity { get; set; }

        public List<string> NamedStreams { get; } = new();

        public uint ExtendedAttributesSize { get; set; }

        /// <summary>The LCN of the first extent; 0 until the simulator hands one out.</summary>
        public long FirstCluster { get; set; }
    }
}

/// <summary>One simulated volume: where it is mounted, its GUID name, what it can do, how much room it has.</summary>
internal sealed class SimulatedVolume
{
    public SimulatedVolume(string mountPath, string? name, string fileSystem, bool blockRefcounting, long clusterSize, uint serial)
    {
        MountPath = mountPath;
        Name = name;
        FileSystem = fileSystem;
        BlockRefcounting = blockRefcounting;
        ClusterSize = clusterSize;
        Serial = serial;
    }

    /// <summary>Where it is mounted, ending with a separator (C:\, C:\dev\, /tmp/x/).</summary>
    public string MountPath { get; }

    /// <summary>\\?\Volume{...}\, or null for a share.</summary>
    public string? Name { get; }

    public string FileSystem { get; }

    /// <summary>Settable: a Dev Drive VHD attached at the same mount point between two builds.</summary>
    public bool BlockRefcounting { get; set; }

    public long ClusterSize { get; }

    public uint Serial { get; }

    /// <summary>Whether CopyFile clones on this volume (Windows 11 from the Moment 5 update, on ReFS and Dev Drive).</summary>
    public bool CopyFileClones { get; set; }

    /// <summary>Room for allocated (non-sparse) clusters.</summary>
    public long FreeBytes { get; set; } = long.MaxValue;

    /// <summary>The integrity setting a new file gets on this volume.</summary>
    public IntegrityInformation DefaultIntegrity { get; set; }
}
