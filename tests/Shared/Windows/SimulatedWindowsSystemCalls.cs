using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Platform.Windows;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// A Win32 kernel simulated over real files, so the Windows engine's own steps run on Linux (and under Wine)
/// against scripted answers. Files are real (created, sized, written, deleted); volumes, sparseness,
/// integrity streams, extents, reference counts, dispositions and foreign openers are simulated, with the rules
/// Microsoft documents. Each rule names its document by title (MS-FSCC and MS-FSA renumber their sections
/// between revisions; the numbers given are those of the revision read, 2025), and where a document names no
/// error code the comment says which one is modelled and why, or marks it ASSUMED (docs/windows.md lists them).
/// This is a model, not Windows: it proves the engine's steps and decisions.
/// Every call is recorded in <see cref="Calls"/>; <see cref="Fault"/> can make any call fail (or act as a hook:
/// it is asked before the call runs); what a document forbids but Windows may still do is recorded in
/// <see cref="Violations"/>.
/// </summary>
internal sealed class SimulatedWindowsSystemCalls : IWindowsSystemCalls
{
    /// <summary>MAX_PATH: a path without the \\?\ prefix must be shorter (Naming Files, Paths and Namespaces).</summary>
    public const int MaxPath = 260;

    private const long FourGiB = 4L << 30;
    private const string ExtendedPrefix = @"\\?\";
    private const string ExtendedUncPrefix = @"\\?\UNC\";

    /// <summary>The host name a file replaced by a POSIX rename keeps while simulated handles still hold it.</summary>
    private const string ReplacedAside = ".simulated-replaced-";

    private readonly object _lock = new();
    private readonly List<SimulatedVolume> _volumes = new();
    private readonly Dictionary<string, string> _dosDevices = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<char, string> _drives = new();
    private readonly Dictionary<SafeFileHandle, Open> _handles = new(ReferenceEqualityComparer.Instance);
    private readonly Dictionary<string, FileState> _files = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, IntegrityInformation> _folderIntegrity = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, SimulatedMutex> _mutexes = new(StringComparer.Ordinal);
    private readonly Dictionary<SafeWaitHandle, SimulatedMutex> _mutexHandles = new(ReferenceEqualityComparer.Instance);
    private long _tokens = 0x10000;
    private long _clusters = 1000;

    /// <summary>"Name subject [details]" for every call, in order.</summary>
    public List<string> Calls { get; } = new();

    /// <summary>Calls a document forbids that were made anyway ("SetSparse on a handle marked for deletion ...").</summary>
    public List<string> Violations { get; } = new();

    /// <summary>
    /// Given a call's name and subject (path or volume), an error code to answer instead, or 0. Asked before the
    /// call runs, so a test can also act at that moment (open the file as a scanner would, write it as another
    /// process would).
    /// </summary>
    public Func<string, string, int> Fault { get; set; } = (_, _) => 0;

    /// <summary>False: a clone records its ranges but moves no bytes (for multi-gigabyte sparse files).</summary>
    public bool CopyData { get; set; } = true;

    /// <summary>The Windows build RtlGetVersion reports, and CreateSymbolicLink behaves as (older builds refuse the unprivileged flag).</summary>
    public int OsBuild { get; set; } = 22631;

    /// <summary>
    /// References one physical block may have: "the maximum number of file regions that can map to the same
    /// physical region is 8175" (Block cloning on ReFS, Windows Server docs). Tests lower it.
    /// </summary>
    public int ReferenceLimit { get; set; } = 8175;

    /// <summary>
    /// True: reference counts are reported as 1 whatever they are, as ReFS and Dev Drive report them for a while
    /// after a clone (the CopyOnWrite library's tests: "the Dev Drive/ReFS logical cluster refcount has delayed
    /// accounting"). Code must compare cluster numbers, not counts.
    /// </summary>
    public bool DelayedReferenceCounts { get; set; }

    /// <summary>
    /// What a clone of a source whose data is still only in the cache (<see cref="WrittenNotFlushed"/>) gets. By default
    /// microsoft/CopyOnWrite #12's account of ReFS: "When a file is not completely flushed to disk when the region clone
    /// operation starts, ReFS tries to flush the file to disk first. There is a race on multiple threads where failure to
    /// flush is ignored and the region clone proceeds anyway": the clone flushes the source (taking
    /// <see cref="CloneFlushMilliseconds"/>), and a clone of the same file that starts meanwhile reads zeros.
    /// </summary>
    public UnflushedSourceClones UnflushedSources { get; set; } = UnflushedSourceClones.FlushedByTheClone;

    /// <summary>How long the flush a clone makes of an unflushed source takes (<see cref="UnflushedSourceClones.FlushedByTheClone"/>).</summary>
    public int CloneFlushMilliseconds { get; set; } = 20;

    /// <summary>Handles the engine opened and has not closed (directories and mutexes included; foreign openers not).</summary>
    public int OpenHandles
    {
        get
        {
            lock (_lock)
            {
                ForgetDisposed();
                return _handles.Values.Count(o => !o.Foreign) + _mutexHandles.Count;
            }
        }
    }

    /// <param name="name">The volume GUID path; null for a share, which has none and is named by its mount point.</param>
    /// <param name="mountPath">Where it is mounted: a Windows root or folder ("S:\", "C:\dev\", "\\server\share\"), or a host folder ending with a separator.</param>
    public SimulatedVolume AddVolume(string mountPath, string? name, string fileSystem = "ReFS", bool blockRefcounting = true, long clusterSize = 4096)
    {
        var volume = new SimulatedVolume(mountPath, name, fileSystem, blockRefcounting, clusterSize, (uint)(0x1000 + _volumes.Count));
        _volumes.Add(volume);
        return volume;
    }

    /// <summary>Windows paths on <paramref name="drive"/> ("S") are files under <paramref name="hostFolder"/>: tests use Windows paths on Linux.</summary>
    public void MapDrive(char drive, string hostFolder) =>
        _drives[char.ToUpperInvariant(drive)] = hostFolder.TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar;

    /// <summary>A subst drive: <paramref name="drive"/> ("S:") stands for <paramref name="folder"/>.</summary>
    public void AddSubst(string drive, string folder) => _dosDevices[drive] = @"\??\" + folder;

    /// <summary>Makes the file sparse with only <paramref name="allocatedBytes"/> from <paramref name="allocatedFrom"/> allocated (all of it by default).</summary>
    public void MarkSparse(string path, long? allocatedBytes = null, long allocatedFrom = 0)
    {
        FileState state = State(HostPath(path));
        state.Sparse = true;
        state.Allocated.Clear();
        long length = new FileInfo(HostPath(path)).Length;
        state.Allocated.Add((allocatedFrom, allocatedBytes ?? length));
    }

    /// <summary>
    /// The file was just written and its data is still in the cache, not on the volume, until it is flushed
    /// (<see cref="FlushFileBuffers"/>, or the flush a clone makes first): a clone of it may share clusters that do not
    /// hold it yet and read as zeros (<see cref="UnflushedSources"/> says when). What microsoft/CopyOnWrite #12 met on ReFS
    /// ("success is returned but ... the destination file having all zeroes" when a fresh source was cloned in parallel)
    /// and git-lfs #6312 met again in 2026 (its fix, #6323, flushes the source).
    /// </summary>
    public void WrittenNotFlushed(string path) => State(HostPath(path)).Unflushed = true;

    /// <summary>Whether the file still has data only in the cache (<see cref="WrittenNotFlushed"/>).</summary>
    public bool IsUnflushed(string path) => State(HostPath(path)).Unflushed;

    /// <summary>Makes the file as old as <paramref name="age"/>: its last write time and ChangeTime set back (a file of an earlier build).</summary>
    public void Age(string path, TimeSpan age)
    {
        string host = HostPath(path);
        DateTime then = DateTime.UtcNow - age;
        File.SetLastWriteTimeUtc(host, then);
        State(host).ChangeTimeSet = then.ToFileTimeUtc();
    }

    /// <summary>Another process changed the file (its data or its metadata): its ChangeTime moves, as every change moves it.</summary>
    public void ChangedElsewhere(string path) => Touch(State(HostPath(path)));

    /// <summary>Gives the file a named data stream (":Zone.Identifier:$DATA", the Mark of the Web).</summary>
    public void AddNamedStream(string path, string name) => State(HostPath(path)).NamedStreams.Add(name);

    /// <summary>Gives the file an extended attribute (its name as listed by NtQueryEaFile, and the size of its value).</summary>
    public void AddExtendedAttribute(string path, string name, int valueLength) => State(HostPath(path)).ExtendedAttributes.Add((name, valueLength));

    public void SetIntegrity(string path, IntegrityInformation integrity) => State(HostPath(path)).Integrity = integrity;

    /// <summary>A folder's integrity setting, which files created in it inherit (Integrity streams, Windows Server docs).</summary>
    public void SetFolderIntegrity(string folder, IntegrityInformation integrity) => _folderIntegrity[Path.TrimEndingDirectorySeparator(Path.GetFullPath(HostPath(folder)))] = integrity;

    public bool IsSparse(string path) => State(HostPath(path)).Sparse;

    public IntegrityInformation IntegrityOf(string path) => State(HostPath(path)).Integrity;

    /// <summary>References to the blocks <paramref name="path"/>'s data lies in (the file itself included).</summary>
    public int ReferencesOf(string path) => State(HostPath(path)).Group.References;

    /// <summary>True while the file is marked for deletion and still has a name: new opens of that name fail.</summary>
    public bool IsDeletePending(string path)
    {
        lock (_lock)
        {
            return _files.TryGetValue(Path.GetFullPath(HostPath(path)), out FileState? state) && state.DeletePending;
        }
    }

    /// <summary>
    /// Opens the file as another process would (an antivirus scanner, an indexer, a writer): the handle takes part
    /// in the share checks and keeps the file alive, and the calls are not recorded. <paramref name="ignoreShareAccess"/>
    /// is a kernel-mode opener (a file system filter, IO_IGNORE_SHARE_ACCESS_CHECK): it passes every share check
    /// and restricts no one. Close it with <see cref="CloseHandle"/>.
    /// </summary>
    public SafeFileHandle OpenForeign(string path, uint access, uint share, bool ignoreShareAccess = false)
    {
        lock (_lock)
        {
            string host = Path.GetFullPath(HostPath(path));
            FileState state = State(host);
            if (!ignoreShareAccess && SharingConflict(state, access, share))
            {
                throw new IOException($"sharing violation opening {path} as another process");
            }

            var handle = new SafeFileHandle(checked((IntPtr)System.Threading.Interlocked.Increment(ref _tokens)), ownsHandle: false);
            _handles[handle] = new Open(host, state, access, share) { Foreign = true, IgnoresShareAccess = ignoreShareAccess };
            return handle;
        }
    }

    public IEnumerable<string> CallsTo(string name)
    {
        lock (_lock)
        {
            return Calls.Where(c => c.StartsWith(name + " ", StringComparison.Ordinal)).ToList();
        }
    }

    public int GetVolumePathName(string path, out string volumePath)
    {
        volumePath = string.Empty;
        int fault = Record("GetVolumePathName", path);
        if (fault != 0)
        {
            return fault;
        }

        if (!IsExtended(path) && path.Length >= MaxPath)
        {
            return Win32.ErrorFilenameExcedRange;
        }

        // GetVolumePathNameW (learn.microsoft.com/windows/win32/api/fileapi/nf-fileapi-getvolumepathnamew): "the
        // longest prefix that represents a volume": mount points (and here subst drives) count, junctions and
        // directory links in the path are not followed.
        string plain = path.StartsWith(ExtendedPrefix, StringComparison.Ordinal) ? path.Substring(ExtendedPrefix.Length) : path;
        string? best = _volumes.Select(v => v.MountPath)
            .Concat(_dosDevices.Keys.Select(d => d + @"\"))
            .Where(m => plain.StartsWith(m, StringComparison.OrdinalIgnoreCase) || (plain + Path.DirectorySeparatorChar).Equals(m, StringComparison.OrdinalIgnoreCase) || (plain + @"\").Equals(m, StringComparison.OrdinalIgnoreCase))
            .OrderByDescending(m => m.Length)
            .FirstOrDefault();
        if (best is null)
        {
            return Win32.ErrorPathNotFound;
        }

        volumePath = ReferenceEquals(plain, path) ? best : ExtendedPrefix + best;
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
            return volumeMountPoint.StartsWith(ExtendedPrefix, StringComparison.Ordinal) ? 4390 : Win32.ErrorInvalidParameter;
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

        (serialNumber, fileSystemFlags, fileSystemName) = (volume.Serial, volume.Flags, volume.FileSystem);
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

    // GetLogicalDrives (learn.microsoft.com/windows/win32/api/fileapi/nf-fileapi-getlogicaldrives): "a bitmask
    // representing the currently available disk drives. Bit position 0 (the least-significant bit) is drive A".
    public int GetLogicalDrives(out uint drives)
    {
        drives = 0;
        int fault = Record("GetLogicalDrives", string.Empty);
        if (fault != 0)
        {
            return fault;
        }

        foreach (char letter in _volumes.Select(v => v.DriveLetter).OfType<char>().Concat(_dosDevices.Keys.Select(d => d[0])))
        {
            drives |= 1u << (char.ToUpperInvariant(letter) - 'A');
        }

        return drives == 0 ? Win32.ErrorGenFailure : 0;
    }

    // GetDriveTypeW: DRIVE_NO_ROOT_DIR (1) for a root that does not exist. A subst drive reports the type of the
    // drive it stands on (here: fixed).
    public uint GetDriveType(string rootPath)
    {
        Record("GetDriveType", rootPath);
        SimulatedVolume? volume = VolumeByRoot(rootPath);
        return volume is not null ? volume.DriveType : _dosDevices.ContainsKey(rootPath.TrimEnd('\\')) ? Win32.DriveFixed : 1u;
    }

    public int GetFileAttributes(string path, out uint attributes)
    {
        attributes = Win32.InvalidFileAttributes;
        int fault = Record("GetFileAttributes", path);
        if (fault != 0)
        {
            return fault;
        }

        int error = Resolve(path, out string host);
        if (error != 0)
        {
            return error;
        }

        lock (_lock)
        {
            if (Directory.Exists(host))
            {
                attributes = Win32.FileAttributeDirectory | (FolderIntegrity(host).ChecksumAlgorithm != Win32.ChecksumTypeNone ? Win32.FileAttributeIntegrityStream : 0);
                return 0;
            }

            if (!File.Exists(host))
            {
                return Directory.Exists(Path.GetDirectoryName(host)) ? Win32.ErrorFileNotFound : Win32.ErrorPathNotFound;
            }

            FileState state = State(host);
            if (state.DeletePending)
            {
                return Win32.ErrorAccessDenied; // STATUS_DELETE_PENDING (ASSUMED A8: its Win32 code)
            }

            attributes = AttributesOf(host, state);
            return 0;
        }
    }

    public int CreateFile(string path, uint desiredAccess, uint shareMode, uint creationDisposition, uint flagsAndAttributes, out SafeFileHandle handle)
    {
        handle = new SafeFileHandle(IntPtr.Zero, ownsHandle: false);
        int fault = Record("CreateFile", path, creationDisposition == Win32.CreateNew ? "CreateNew" : "OpenExisting");
        if (fault != 0)
        {
            return fault;
        }

        int error = Resolve(path, out string host);
        if (error != 0)
        {
            return error;
        }

        lock (_lock)
        {
            bool create = creationDisposition == Win32.CreateNew;

            // A name whose file is marked for deletion cannot be opened, nor created again, until the file is gone
            // (WDK FILE_DISPOSITION_INFORMATION; STATUS_DELETE_PENDING, which CreateFileW reports as access denied:
            // ASSUMED A8).
            if (_files.TryGetValue(host, out FileState? pending) && pending.DeletePending)
            {
                return Win32.ErrorAccessDenied;
            }

            if (create && (File.Exists(host) || Directory.Exists(host)))
            {
                return Win32.ErrorFileExists;
            }

            // CreateFile opens a directory only with FILE_FLAG_BACKUP_SEMANTICS (CreateFileW, "Directories"). The host
            // cannot open one as a file: the handle is a token the simulator knows by its path.
            if (!create && Directory.Exists(host))
            {
                if ((flagsAndAttributes & Win32.FileFlagBackupSemantics) == 0)
                {
                    return Win32.ErrorAccessDenied;
                }

                handle = new SafeFileHandle(checked((IntPtr)System.Threading.Interlocked.Increment(ref _tokens)), ownsHandle: false);
                _handles[handle] = new Open(host, null, desiredAccess, shareMode);
                return 0;
            }

            if (!create && File.Exists(host) && SharingConflict(State(host), desiredAccess, shareMode))
            {
                return Win32.ErrorSharingViolation;
            }

            // File Attribute Constants, FILE_ATTRIBUTE_READONLY: "Applications can read the file, but cannot write to it";
            // an open for writing is refused with ERROR_ACCESS_DENIED (the host, as root, would allow it).
            if (!create && File.Exists(host) && (desiredAccess & Win32.GenericWrite) != 0 && (AttributesOf(host, State(host)) & Win32.FileAttributeReadOnly) != 0)
            {
                return Win32.ErrorAccessDenied;
            }

            SafeFileHandle opened;
            try
            {
                FileAccess access = (desiredAccess & Win32.GenericWrite) != 0 ? FileAccess.ReadWrite : FileAccess.Read;
                opened = File.OpenHandle(host, create ? FileMode.CreateNew : FileMode.Open, access, FileShare.ReadWrite | FileShare.Delete);
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

            if (create)
            {
                // A new file gets its folder's integrity setting (Integrity streams: files "inherit" it from their
                // parent directory), else the volume's default.
                _files.Remove(host);
                FileState created = State(host);
                created.Integrity = FolderIntegrity(Path.GetDirectoryName(host)!);

                // CreateFileW, dwFlagsAndAttributes: a new file gets the attributes asked for (FILE_ATTRIBUTE_NORMAL: none).
                uint asked = flagsAndAttributes & Win32.ValidSetAttributes;
                if (asked != 0)
                {
                    created.SetAttributes = asked;
                }
            }

            handle = opened;
            _handles[handle] = new Open(host, State(host), desiredAccess, shareMode);
            return 0;
        }
    }

    public int GetFileInformation(SafeFileHandle file, out Win32FileInformation information)
    {
        information = default;
        Open open = Use(file, "GetFileInformation", out int fault);
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            RealFileIds.Id id = RealFileIds.Read(open.Path, followLinks: true) ?? throw new FileNotFoundException(open.Path);
            long length = open.File is null ? 0 : RandomAccess.GetLength(file);
            uint attributes = open.File is null ? Win32.FileAttributeDirectory : AttributesOf(open.Path, open.File);
            information = new Win32FileInformation(attributes, VolumeOf(open.Path)?.Serial ?? 0, id.Inode, id.Links, length);
            return 0;
        }
    }

    public int GetFileId(SafeFileHandle file, out Win32FileId id)
    {
        id = default;
        Open open = Use(file, "GetFileId", out int fault);
        if (fault != 0)
        {
            return fault;
        }

        RealFileIds.Id real = RealFileIds.Read(open.Path, followLinks: true) ?? throw new FileNotFoundException(open.Path);
        id = new Win32FileId(real.Device, real.Inode, 0);
        return 0;
    }

    // NtQueryInformationFile(FileAllInformation) (MS-FSCC FileAllInformation, 2.4.2; MS-FSA "FileAllInformation"):
    // FileBasicInformation, FileStandardInformation, FileInternalInformation, FileEaInformation and the rest.
    // AllocationSize is the clusters allocated (MS-FSA Stream.AllocationSize): a sparse file's holes have none.
    public int QueryAllInformation(SafeFileHandle file, out Win32FileAllInformation information)
    {
        information = default;
        Open open = Use(file, "QueryAllInformation", out int fault);
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            RealFileIds.Id id = RealFileIds.Read(open.Path, followLinks: true) ?? throw new FileNotFoundException(open.Path);
            if (open.File is null)
            {
                information = new Win32FileAllInformation(Win32.FileAttributeDirectory, TimesOf(open.Path, null), 0, 0, id.Links, (long)id.Inode, 0);
                return 0;
            }

            long length = RandomAccess.GetLength(file);
            information = new Win32FileAllInformation(AttributesOf(open.Path, open.File), TimesOf(open.Path, open.File), AllocationOf(open.File, length, ClusterOf(open.Path)), length, id.Links, (long)id.Inode, ExtendedAttributesSizeOf(open.File));
            return 0;
        }
    }

    // GetFileInformationByHandleEx(FileStreamInfo) (learn.microsoft.com/windows/win32/api/winbase/ns-winbase-file_stream_info;
    // MS-FSCC FileStreamInformation, page f8762be6, 2.4.43 in the current revision): every data stream by name, the
    // unnamed one as "::$DATA". A store without named streams fails the query with STATUS_INVALID_INFO_CLASS
    // (MS-FSA, "FileStreamInformation": "If the object store does not implement ... FileStreamInformation";
    // ERROR_INVALID_PARAMETER through RtlNtStatusToDosError).
    public int GetStreamNames(SafeFileHandle file, out string[] names)
    {
        names = Array.Empty<string>();
        Open open = Use(file, "GetStreamNames", out int fault);
        if (fault != 0)
        {
            return fault;
        }

        if (VolumeOf(open.Path) is { NamedStreams: false })
        {
            return Win32.ErrorInvalidParameter;
        }

        names = new[] { "::$DATA" }.Concat(open.File!.NamedStreams.Select(n => $":{n}:$DATA")).ToArray();
        return 0;
    }

    // NtQueryEaFile (WDK ZwQueryEaFile): FILE_FULL_EA_INFORMATION entries. Kernel extended attributes ($KERNEL.*) are
    // listed like any other (Kernel Extended Attributes, WDK): only setting them from user mode is refused.
    public int GetExtendedAttributeNames(SafeFileHandle file, out string[] names)
    {
        names = Array.Empty<string>();
        Open open = Use(file, "GetExtendedAttributeNames", out int fault);
        if (fault != 0)
        {
            return fault;
        }

        names = open.File!.ExtendedAttributes.Select(e => e.Name).ToArray();
        return 0;
    }

    public int GetFinalPathName(SafeFileHandle file, out string path)
    {
        path = string.Empty;
        Open open = Use(file, "GetFinalPathName", out int fault);
        if (fault != 0)
        {
            return fault;
        }

        path = WindowsFormOf(RealFileIds.FinalPath(open.Path));
        return 0;
    }

    // FSCTL_SET_SPARSE (MS-FSCC 2.3.83 FSCTL_SET_SPARSE Request; MS-FSA 2.1.5.10.38): needs write access
    // (FILE_WRITE_DATA or FILE_WRITE_ATTRIBUTES). Clearing it allocates the holes. An integrity stream cannot be
    // sparse ("Data streams can be sparse but integrity streams cannot", TechNet, 2013; the code is ASSUMED A7).
    public int SetSparse(SafeFileHandle file, bool sparse)
    {
        Open open = Use(file, "SetSparse", out int fault, sparse.ToString());
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            if (!open.CanWrite)
            {
                return Win32.ErrorAccessDenied;
            }

            FileState state = open.File!;
            if (sparse && state.Integrity.ChecksumAlgorithm != Win32.ChecksumTypeNone)
            {
                return Win32.ErrorInvalidParameter;
            }

            long length = RandomAccess.GetLength(file);
            long cluster = ClusterOf(open.Path);
            if (!sparse && state.Sparse)
            {
                long holes = RoundUp(length, cluster) - AllocationOf(state, length, cluster);
                if (VolumeOf(open.Path) is { } volume && holes > volume.FreeBytes)
                {
                    return Win32.ErrorDiskFull;
                }

                state.Allocated.Clear();
            }
            else if (sparse && !state.Sparse)
            {
                state.Allocated.Clear();
                state.Allocated.Add((0, length)); // what a file has allocated stays allocated
            }

            state.Sparse = sparse;
            Touch(state);
            return 0;
        }
    }

    // FSCTL_GET_INTEGRITY_INFORMATION (MS-FSCC "FSCTL_GET_INTEGRITY_INFORMATION Reply", page 72640484, 2.3.20 in the
    // current revision): STATUS_INVALID_DEVICE_REQUEST where the volume has no integrity streams.
    // FSCTL_GET_INTEGRITY_INFORMATION (MS-FSCC 2.3.20, its reply): the file's setting and the volume's ClusterSizeInBytes.
    public int GetIntegrityInformation(SafeFileHandle file, out IntegrityInformation information, out long clusterSize)
    {
        information = default;
        clusterSize = 0;
        Open open = Use(file, "GetIntegrityInformation", out int fault);
        if (fault != 0)
        {
            return fault;
        }

        if (VolumeOf(open.Path) is not { IntegrityStreams: true })
        {
            return Win32.ErrorInvalidFunction;
        }

        information = open.File!.Integrity;
        clusterSize = VolumeOf(open.Path)?.IntegrityQueryClusterSize ?? ClusterOf(open.Path);
        return 0;
    }

    // FSCTL_SET_INTEGRITY_INFORMATION (MS-FSA 2.1.5.10.33, MS-FSCC 2.3.73/2.3.74): ChecksumAlgorithm must be
    // NONE, CRC32, CRC64 or UNCHANGED, Flags 0 or CHECKSUM_ENFORCEMENT_OFF, never NONE with ENFORCEMENT_OFF
    // (STATUS_INVALID_PARAMETER); a file whose blocks are shared is refused with STATUS_NOT_SUPPORTED (2.3.74).
    // The setting changes only while the file is empty (the FSCTL_SET_INTEGRITY_INFORMATION page; the code is not
    // documented: ERROR_INVALID_PARAMETER), and not on a sparse file (ASSUMED A7).
    public int SetIntegrityInformation(SafeFileHandle file, IntegrityInformation information)
    {
        Open open = Use(file, "SetIntegrityInformation", out int fault, $"{information.ChecksumAlgorithm}");
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            SimulatedVolume? volume = VolumeOf(open.Path);
            if (volume is not { IntegrityStreams: true })
            {
                return Win32.ErrorInvalidFunction;
            }

            // Its page: "Minimum supported client: None supported"; reflink-copy met access denied on a Dev Drive (its issue #27).
            if (!open.CanWrite || volume.RefusesSetIntegrity)
            {
                return Win32.ErrorAccessDenied;
            }

            ushort algorithm = information.ChecksumAlgorithm;
            bool knownAlgorithm = algorithm is Win32.ChecksumTypeNone or Win32.ChecksumTypeCrc32 or Win32.ChecksumTypeCrc64 or Win32.ChecksumTypeUnchanged;
            if (!knownAlgorithm || (information.Flags & ~Win32.IntegrityFlagChecksumEnforcementOff) != 0
                || (algorithm == Win32.ChecksumTypeNone && information.Flags != 0))
            {
                return Win32.ErrorInvalidParameter;
            }

            FileState state = open.File!;
            if (state.Group.References > 1)
            {
                return Win32.ErrorNotSupported;
            }

            if (RandomAccess.GetLength(file) != 0 || (state.Sparse && algorithm != Win32.ChecksumTypeNone))
            {
                return Win32.ErrorInvalidParameter;
            }

            state.Integrity = new IntegrityInformation(algorithm == Win32.ChecksumTypeUnchanged ? state.Integrity.ChecksumAlgorithm : algorithm, information.Flags);
            Touch(state);
            return 0;
        }
    }

    public int SetEndOfFile(SafeFileHandle file, long length)
    {
        Open open = Use(file, "SetEndOfFile", out int fault, $"{length}");
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            if (!open.CanWrite)
            {
                return Win32.ErrorAccessDenied;
            }

            // A non-sparse file gets real clusters for its whole length (MS-FSA 2.1.5.15.4, FileEndOfFileInformation);
            // a sparse one allocates none.
            SimulatedVolume? volume = VolumeOf(open.Path);
            if (!open.File!.Sparse && volume is not null && length > volume.FreeBytes)
            {
                return Win32.ErrorDiskFull;
            }

            // The host's file stays a hole whatever the simulated one is: a 5 GiB test must not allocate 5 GiB natively.
            if (length >= SparseHostFiles.LargeLength)
            {
                SparseHostFiles.MarkSparse(file, open.Path);
            }

            RandomAccess.SetLength(file, length);
            Touch(open.File);
            return 0;
        }
    }

    // FlushFileBuffers (learn.microsoft.com/windows/win32/api/fileapi/nf-fileapi-flushfilebuffers): "The handle must have
    // the GENERIC_WRITE access right" (else ERROR_ACCESS_DENIED); the file's cached data is written to the volume.
    public int FlushFileBuffers(SafeFileHandle file)
    {
        Open open = Use(file, "FlushFileBuffers", out int fault);
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            if (!open.CanWrite || open.File is null)
            {
                return Win32.ErrorAccessDenied;
            }

            open.File.Unflushed = false;
            return 0;
        }
    }

    public int DuplicateExtents(SafeFileHandle source, SafeFileHandle destination, long sourceOffset, long destinationOffset, long byteCount)
    {
        Open? from = OpenOf(source);
        Open to = Use(destination, "DuplicateExtents", out int fault, $"{sourceOffset} {destinationOffset} {byteCount}");
        if (fault != 0)
        {
            return fault;
        }

        bool readsZeros = CloneMissesCachedData(from?.File);
        lock (_lock)
        {
            if (from?.File is null || to.File is null)
            {
                return Win32.ErrorInvalidParameter;
            }

            if (from.Marked)
            {
                Violations.Add($"DuplicateExtents from {from.Path}, a handle marked for deletion (WDK FILE_DISPOSITION_INFORMATION: only closing it is legal)");
            }

            // MS-FSA 2.1.5.10.4: "If the object store does not implement this functionality, the operation MUST be
            // failed with STATUS_INVALID_DEVICE_REQUEST" (ERROR_INVALID_FUNCTION). A volume without block
            // refcounting (NTFS) is such an object store.
            SimulatedVolume? volume = VolumeOf(to.Path);
            if (volume is not null && !volume.BlockRefcounting)
            {
                return Win32.ErrorInvalidFunction;
            }

            // MS-FSCC 2.3.8: STATUS_INVALID_PARAMETER when "the FileHandle parameter ... does not represent a handle
            // to an opened file on the same volume" (ERROR_INVALID_PARAMETER, not ERROR_NOT_SAME_DEVICE). The target
            // must be open for writing (the FSCTL's access is FILE_WRITE_ACCESS), the source for reading.
            if (volume is null || !ReferenceEquals(volume, VolumeOf(from.Path)))
            {
                return Win32.ErrorInvalidParameter;
            }

            if (!to.CanWrite || (from.Access & Win32.GenericRead) == 0)
            {
                return Win32.ErrorAccessDenied;
            }

            // MS-FSCC 2.3.7.1 / 2.3.9.1: offsets and ByteCount "MUST be aligned to a logical cluster boundary";
            // Block Cloning (learn.microsoft.com/windows/win32/fileio/block-cloning): one call clones less than
            // 4 GiB, and "the destination region must not extend past the end of file". A range whose end is the
            // end of file rounded up to its cluster is accepted: CopyOnWrite, reflink and CloneCopy round up, and
            // CopyOnWrite's CI clones 8-byte files this way on real ReFS (practice, not text: ASSUMED A1). Not one
            // of MS-FSCC's listed codes: modelled as STATUS_INVALID_PARAMETER.
            long cluster = volume.ClusterSize;
            long destinationLength = RandomAccess.GetLength(destination);
            bool aligned = sourceOffset % cluster == 0 && destinationOffset % cluster == 0 && byteCount % cluster == 0;
            if (!aligned || byteCount <= 0 || byteCount >= FourGiB || destinationOffset + byteCount > RoundUp(destinationLength, cluster))
            {
                return Win32.ErrorInvalidParameter;
            }

            // MS-FSCC 2.3.8: STATUS_NOT_SUPPORTED (ERROR_NOT_SUPPORTED) when the "source file is sparse, while target
            // is a non-sparse file", when source and target ranges overlap in one file, and when the source range
            // lies beyond the source's allocation size: all about this file, not the volume. The allocation size is
            // taken as MS-FSA's Stream.AllocationSize, the whole stream rounded up to its cluster, holes included (a
            // sparse file's holes are inside it), so a sparse source with holes clones, holes as holes: an inference
            // from MS-FSA's definitions, not a rule its clone section (2.1.5.10.4) states (ASSUMED A20).
            long sourceLength = RandomAccess.GetLength(source);
            bool overlap = ReferenceEquals(from.File, to.File) && sourceOffset < destinationOffset + byteCount && destinationOffset < sourceOffset + byteCount;
            if ((from.File.Sparse && !to.File.Sparse) || overlap || sourceOffset + byteCount > RoundUp(sourceLength, cluster))
            {
                return Win32.ErrorNotSupported;
            }

            // Block Cloning: integrity streams "enabled in both files or disabled in both files" (ReFS): only whether they
            // are on, not the algorithm or the flags. The code is not documented; modelled as STATUS_INVALID_PARAMETER,
            // which the engine treats per file.
            if ((from.File.Integrity.ChecksumAlgorithm != Win32.ChecksumTypeNone) != (to.File.Integrity.ChecksumAlgorithm != Win32.ChecksumTypeNone))
            {
                return Win32.ErrorInvalidParameter;
            }

            // Each file that maps a block adds a reference; past the limit ReFS answers
            // ERROR_BLOCK_TOO_MANY_REFERENCES (347; Block cloning on ReFS: 8175 regions per physical region).
            if (!ReferenceEquals(to.File.Group, from.File.Group))
            {
                if (from.File.Group.References + 1 > ReferenceLimit)
                {
                    return Win32.ErrorBlockTooManyReferences;
                }

                to.File.Group.References--;
                to.File.Group = from.File.Group;
                to.File.Group.References++;
            }

            if (to.File.Sparse)
            {
                // The clone maps what the source maps: its holes stay holes in the destination.
                foreach ((long offset, long count) in from.File.Sparse ? from.File.Allocated.ToList() : new() { (sourceOffset, byteCount) })
                {
                    long start = Math.Max(offset, sourceOffset), end = Math.Min(offset + count, sourceOffset + byteCount);
                    if (end > start)
                    {
                        to.File.Allocated.Add((start - sourceOffset + destinationOffset, end - start));
                    }
                }
            }

            if (CopyData)
            {
                int count = (int)Math.Max(0, Math.Min(byteCount, Math.Min(sourceLength - sourceOffset, destinationLength - destinationOffset)));
                var buffer = new byte[count];
                int read = RandomAccess.Read(source, buffer, sourceOffset);

                // A source whose data is still only in the cache: the shared clusters do not hold it yet (WrittenNotFlushed).
                if (readsZeros)
                {
                    Array.Clear(buffer);
                }

                RandomAccess.Write(destination, buffer.AsSpan(0, read), destinationOffset);
            }

            Touch(to.File);
            return 0;
        }
    }

    /// <summary>
    /// Whether a clone starting now from <paramref name="file"/> shares clusters that do not hold its data yet
    /// (<see cref="UnflushedSources"/>). With #12's account, the first clone of an unflushed file flushes it, outside the
    /// simulator's lock and taking <see cref="CloneFlushMilliseconds"/>, and a clone of it that starts meanwhile goes on
    /// without waiting and reads zeros.
    /// </summary>
    private bool CloneMissesCachedData(FileState? file)
    {
        if (file is null)
        {
            return false;
        }

        lock (_lock)
        {
            if (!file.Unflushed)
            {
                return false;
            }

            if (UnflushedSources == UnflushedSourceClones.ReadAsZeros || file.FlushingForAClone)
            {
                return true;
            }

            file.FlushingForAClone = true;
        }

        System.Threading.Thread.Sleep(CloneFlushMilliseconds);
        lock (_lock)
        {
            file.Unflushed = false;
            file.FlushingForAClone = false;
        }

        return false;
    }

    // SetFileInformationByHandle(FileBasicInfo) (WDK FILE_BASIC_INFORMATION: a time of 0 leaves it unchanged; MS-FSA
    // 2.1.5.15.2 FileBasicInformation: the attributes are taken as FileAttributes & ValidSetAttributes when
    // FileAttributes is not 0, and FILE_ATTRIBUTE_DIRECTORY on a data file is STATUS_INVALID_PARAMETER). Needs
    // FILE_WRITE_ATTRIBUTES.
    public int SetBasicInformation(SafeFileHandle file, Win32FileTimes times, uint attributes)
    {
        Open open = Use(file, "SetBasicInformation", out int fault, $"{times.LastWriteTime} {attributes:x}");
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            if (!open.CanWrite || open.File is null)
            {
                return Win32.ErrorAccessDenied;
            }

            if ((attributes & Win32.FileAttributeDirectory) != 0)
            {
                return Win32.ErrorInvalidParameter;
            }

            if (times.LastWriteTime != 0)
            {
                File.SetLastWriteTimeUtc(file, DateTime.FromFileTimeUtc(times.LastWriteTime));
            }

            if (times.CreationTime != 0)
            {
                File.SetCreationTimeUtc(file, DateTime.FromFileTimeUtc(times.CreationTime));
            }

            if (attributes != 0)
            {
                uint settable = attributes & Win32.ValidSetAttributes;
                open.File.SetAttributes = settable;
                File.SetAttributes(file, settable == 0 ? FileAttributes.Normal : (FileAttributes)settable);
            }

            if (times.ChangeTime != 0)
            {
                open.File.ChangeTimeSet = times.ChangeTime;
            }
            else
            {
                Touch(open.File);
            }

            return 0;
        }
    }

    // SetFileInformationByHandle, FILE_DISPOSITION_INFO (learn.microsoft.com/windows/win32/api/winbase/ns-winbase-file_disposition_info;
    // WDK FILE_DISPOSITION_INFORMATION; MS-FSA 2.1.5.15.3 FileDispositionInformation): the handle needs DELETE access
    // (STATUS_ACCESS_DENIED without it); a read-only file cannot be marked (STATUS_CANNOT_DELETE, ERROR_ACCESS_DENIED).
    // The file is deleted when its last handle closes. WDK: once marked, "the only legal operation by such a caller is
    // to close the open file handle"; MS-FSA lets FALSE clear the mark. Clearing works here, and is recorded as a
    // violation of the WDK page.
    public int SetDeleteOnClose(SafeFileHandle file, bool delete)
    {
        Open open = Use(file, "SetDeleteOnClose", out int fault, delete.ToString());
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            return Dispose(open, delete ? Win32.FileDispositionFlagDelete : 0);
        }
    }

    // SetFileInformationByHandle, FILE_DISPOSITION_INFO_EX (WDK FILE_DISPOSITION_INFORMATION_EX): FILE_DISPOSITION_DELETE
    // marks the file; with FILE_DISPOSITION_POSIX_SEMANTICS "the link is removed from the visible namespace as soon as
    // the POSIX delete handle has been closed" while other handles may stay open; IGNORE_READONLY_ATTRIBUTE deletes a
    // read-only file. A volume without FILE_SUPPORTS_POSIX_UNLINK_RENAME refuses POSIX semantics (modelled as
    // ERROR_NOT_SUPPORTED; ASSUMED A2).
    public int SetDispositionEx(SafeFileHandle file, uint flags)
    {
        Open open = Use(file, "SetDispositionEx", out int fault, $"{flags:x}");
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            if ((flags & Win32.FileDispositionFlagPosixSemantics) != 0 && VolumeOf(open.Path) is { PosixUnlinkRename: false })
            {
                return Win32.ErrorNotSupported;
            }

            return Dispose(open, flags);
        }
    }

    // The file of a handle marked for deletion is deleted when the last handle to it closes (MS-FSA 2.1.5.4,
    // Server Requests Closing an Open: "If Open.Stream.File.PendingDelete ... and this is the last open"); a POSIX
    // delete removes the name when the marking handle closes. Other handles (a scanner's) keep the file alive.
    public void CloseHandle(SafeFileHandle file)
    {
        Open? open = OpenOf(file);
        if (open is null)
        {
            file.Dispose(); // the handle of a failed open: nothing was opened
            return;
        }

        if (!open.Foreign)
        {
            Record("CloseHandle", open.Path);
        }

        lock (_lock)
        {
            _handles.Remove(file);
            file.Dispose();
            ForgetDisposed();
            FileState? state = open.File;
            if (state is not null && !state.Named && Path.GetFileName(open.Path).StartsWith(ReplacedAside, StringComparison.Ordinal)
                && !_handles.Values.Any(o => ReferenceEquals(o.File, state)))
            {
                File.Delete(open.Path); // the last handle of a file a POSIX rename replaced: it goes now
            }

            if (state is null || !state.DeletePending)
            {
                return;
            }

            bool lastOpen = !_handles.Values.Any(o => ReferenceEquals(o.File, state));
            if ((open.PosixDelete || lastOpen) && state.Named)
            {
                Unlink(open.Path, state);
            }

            if (lastOpen)
            {
                state.Group.References--;
            }
        }
    }

    // CopyFileW (learn.microsoft.com/windows/win32/api/winbase/nf-winbase-copyfilew), bFailIfExists TRUE:
    // ERROR_FILE_EXISTS for an existing target. Where the volume's CopyFile clones (the Block Cloning page: "block
    // cloning occurs natively in supported Windows copy operations" from the Moment 5 update, on ReFS and Dev
    // Drive), the copy shares the source's clusters; elsewhere, or at the reference limit (ASSUMED A12), it gets
    // clusters of its own. Its source is opened for reading, sharing read and delete only, as Windows opens it: "Before a
    // copy operation can be performed, the source file must be closed or opened only for reading. No thread can have the
    // source file opened for writing" (Moving and Replacing Files), and a ProcMon trace of CopyFileEx shows "Desired
    // Access: Generic Read ... ShareMode: Read, Delete". So any handle with write access on the source, however short,
    // refuses it with a sharing violation. Wine's CopyFileExW shares write too; no test compares CopyFile with Wine's.
    public int CopyFile(string source, string destination)
    {
        int fault = Record("CopyFile", destination);
        if (fault != 0)
        {
            return fault;
        }

        int error = Resolve(source, out string from);
        string to = string.Empty;
        if (error == 0)
        {
            error = Resolve(destination, out to);
        }

        if (error != 0)
        {
            return error;
        }

        lock (_lock)
        {
            if (!File.Exists(from))
            {
                return Win32.ErrorFileNotFound;
            }

            if (_files.TryGetValue(to, out FileState? pending) && pending.DeletePending)
            {
                return Win32.ErrorAccessDenied;
            }

            if (File.Exists(to))
            {
                return Win32.ErrorFileExists;
            }

            FileState sourceState = State(from);
            if (SharingConflict(sourceState, Win32.GenericRead, Win32.FileShareRead | Win32.FileShareDelete))
            {
                return Win32.ErrorSharingViolation;
            }

            File.Copy(from, to);
            _files.Remove(to);
            FileState copy = State(to);

            // File Attribute Constants, FILE_ATTRIBUTE_INTEGRITY_STREAM: "If a file is copied the destination file will
            // have integrity set if either the source file or destination directory have integrity set" (the folder's
            // setting when it has one, else the source's; the order is ASSUMED A21). Not sparse (ASSUMED A19): CopyFile keeps sparseness
            // only with COPY_FILE_ENABLE_SPARSE_COPY, which CopyFileW cannot pass.
            IntegrityInformation folder = FolderIntegrity(Path.GetDirectoryName(to)!);
            copy.Integrity = folder.ChecksumAlgorithm != Win32.ChecksumTypeNone ? folder : sourceState.Integrity;
            SimulatedVolume? volume = VolumeOf(to);
            bool clones = volume is { CopyFileClones: true, BlockRefcounting: true } && ReferenceEquals(volume, VolumeOf(from)) && sourceState.Group.References + 1 <= ReferenceLimit;
            if (clones)
            {
                copy.Group.References--;
                copy.Group = sourceState.Group;
                copy.Group.References++;
            }

            return 0;
        }
    }

    // FSCTL_GET_RETRIEVAL_POINTERS (its Learn page; MS-FSCC 2.3.33) and its _AND_REFCOUNT form (2.3.34/2.3.34.1; MS-FSA 2.1.5.10.16):
    // each extent's next VCN, its LCN (-1 where nothing is allocated: a sparse file's holes) and reference count;
    // STATUS_END_OF_FILE (ERROR_HANDLE_EOF) for a file with no clusters; STATUS_BUFFER_OVERFLOW (ERROR_MORE_DATA)
    // with the extents that fit. A clone's extents lie at its source's LCNs (Block Cloning: the clone maps the
    // destination's clusters onto the source's).
    public int GetExtents(SafeFileHandle file, int maximum, out Win32Extent[] extents)
    {
        extents = Array.Empty<Win32Extent>();
        Open open = Use(file, "GetExtents", out int fault);
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            List<Win32Extent> all = ExtentsOf(open.File!, RandomAccess.GetLength(file), ClusterOf(open.Path), VolumeOf(open.Path)?.ResidentDataBelow ?? 0);
            if (all.Count == 0)
            {
                return Win32.ErrorHandleEof;
            }

            extents = all.Take(maximum).ToArray();
            return all.Count > maximum ? Win32.ErrorMoreData : 0;
        }
    }

    /// <summary>
    /// FileRenameInfoEx (SetFileInformationByHandle; FILE_RENAME_INFORMATION, MS-FSCC 2.4.42.2; MS-FSA 2.1.5.15.11): needs
    /// DELETE access on the handle. Known from Windows 10 1607 (build 14393: the WDK headers gate its flags at
    /// _WIN32_WINNT_WIN10_RS1); an older build answers as for an unknown class (ERROR_INVALID_PARAMETER, ASSUMED). POSIX_SEMANTICS on a volume without FILE_SUPPORTS_POSIX_UNLINK_RENAME:
    /// ERROR_NOT_SUPPORTED (ASSUMED, as for the disposition). The target: see <see cref="RenameOver"/>.
    /// </summary>
    public int RenameByHandle(SafeFileHandle file, string newPath, uint flags)
    {
        Open open = Use(file, "RenameByHandle", out int fault, $"{flags:x}");
        if (fault != 0)
        {
            return fault;
        }

        if (OsBuild < 14393)
        {
            return Win32.ErrorInvalidParameter;
        }

        if ((open.Access & Win32.Delete) == 0)
        {
            return Win32.ErrorAccessDenied;
        }

        int error = Resolve(newPath, out string target);
        if (error != 0)
        {
            return error;
        }

        lock (_lock)
        {
            bool posix = (flags & Win32.FileRenameFlagPosixSemantics) != 0;
            if (posix && VolumeOf(open.Path) is { PosixUnlinkRename: false })
            {
                return Win32.ErrorNotSupported;
            }

            return RenameOver(open.Path, target, (flags & Win32.FileRenameFlagReplaceIfExists) != 0, posix);
        }
    }

    /// <summary>MoveFileExW with MOVEFILE_REPLACE_EXISTING, on one volume: a rename that may replace the target.</summary>
    public int MoveFileReplacing(string existingPath, string newPath)
    {
        int fault = Record("MoveFileReplacing", newPath);
        if (fault != 0)
        {
            return fault;
        }

        int error = Resolve(existingPath, out string from);
        string to = string.Empty;
        if (error == 0)
        {
            error = Resolve(newPath, out to);
        }

        if (error != 0)
        {
            return error;
        }

        lock (_lock)
        {
            if (!File.Exists(from) && !new FileInfo(from).Exists)
            {
                return Win32.ErrorFileNotFound;
            }

            return RenameOver(from, to, replace: true, posix: false);
        }
    }

    /// <summary>
    /// A rename onto <paramref name="target"/>: an existing target needs the replace flag (else ERROR_ALREADY_EXISTS), is
    /// refused when read-only or a directory (ERROR_ACCESS_DENIED, MS-FSA 2.1.5.15.11), and when any open of it does not
    /// share delete (ERROR_ACCESS_DENIED: the target is opened for DELETE). Without POSIX semantics a target another
    /// handle holds open (even sharing delete) is refused too; with them its name goes at once and the handles keep the
    /// old file: on the host it is moved aside first (a name only those handles know, removed with the last of them), so
    /// what is asked through them is asked of it, not of the file now at its old name. The handles of the renamed file
    /// follow it to its new name.
    /// </summary>
    private int RenameOver(string from, string target, bool replace, bool posix)
    {
        if (File.Exists(target) || Directory.Exists(target))
        {
            if (!replace)
            {
                return 183; // ERROR_ALREADY_EXISTS
            }

            if (Directory.Exists(target))
            {
                return Win32.ErrorAccessDenied;
            }

            FileState old = State(target);
            if (old.DeletePending || (AttributesOf(target, old) & Win32.FileAttributeReadOnly) != 0
                || SharingConflict(old, Win32.Delete, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete))
            {
                return Win32.ErrorAccessDenied;
            }

            ForgetDisposed();
            Open[] holding = _handles.Values.Where(o => ReferenceEquals(o.File, old)).ToArray();
            if (!posix && holding.Length > 0)
            {
                return Win32.ErrorAccessDenied;
            }

            old.Named = false;
            _files.Remove(target);
            if (holding.Length > 0)
            {
                // Renaming a file the simulator's handles hold is allowed on any host (they share delete); renaming over it
                // is not under Wine.
                string aside = Path.Combine(Path.GetDirectoryName(target)!, ReplacedAside + Guid.NewGuid().ToString("N"));
                File.Move(target, aside);
                foreach (Open holder in holding)
                {
                    holder.Path = aside;
                }
            }
        }

        FileState? moving = _files.TryGetValue(from, out FileState? state) ? state : null;
        File.Move(from, target, overwrite: true);
        _files.Remove(from);
        if (moving is not null)
        {
            _files[target] = moving;
            Touch(moving); // ChangeTime "refers to changes to file metadata, such as renames" (FILE_BASIC_INFO)
            ForgetDisposed();
            foreach (Open follower in _handles.Values.Where(o => ReferenceEquals(o.File, moving)))
            {
                follower.Path = target;
            }
        }

        return 0;
    }

    // CreateMutexW (its page; Object Names): a name in use by a mutex gives a handle to that mutex ("equivalent to a call
    // to the OpenMutex function"); the object goes with its last handle. One namespace: the simulated processes share a
    // session (Kernel Object Namespaces, Local\).
    public int CreateMutex(string name, out SafeWaitHandle mutex)
    {
        mutex = new SafeWaitHandle(IntPtr.Zero, ownsHandle: false);
        int fault = Record("CreateMutex", name);
        if (fault != 0)
        {
            return fault;
        }

        lock (_lock)
        {
            if (!_mutexes.TryGetValue(name, out SimulatedMutex? existing))
            {
                _mutexes[name] = existing = new SimulatedMutex(name);
            }

            existing.Handles++;
            mutex = new SafeWaitHandle(checked((IntPtr)System.Threading.Interlocked.Increment(ref _tokens)), ownsHandle: false);
            _mutexHandles[mutex] = existing;
            return 0;
        }
    }

    // WaitForSingleObject on a mutex (its page; Mutex Objects): free, or owned by this thread already (counted), it is this
    // thread's at once; owned by another thread, the wait lasts until that thread releases it or the time is up
    // (WAIT_TIMEOUT). Ownership is a thread's, as on Windows; an owner thread that ends without releasing it abandons it,
    // and the next wait takes it with WAIT_ABANDONED ("the mutex object is abandoned ... the waiting thread gets
    // ownership": Mutex Objects), as a process killed while holding it leaves it to the next waiter.
    public int WaitForMutex(SafeWaitHandle mutex, int milliseconds)
    {
        SimulatedMutex state = MutexOf(mutex);
        int fault = Record("WaitForMutex", state.Name);
        if (fault != 0)
        {
            return fault;
        }

        Thread me = Thread.CurrentThread;
        var waited = System.Diagnostics.Stopwatch.StartNew();
        lock (state)
        {
            while (state.Owner is Thread owner && owner != me)
            {
                if (!owner.IsAlive)
                {
                    state.Owner = me;
                    state.Count = 1;
                    return Win32.WaitAbandoned;
                }

                int left = milliseconds - (int)waited.ElapsedMilliseconds;
                if (left <= 0)
                {
                    return Win32.WaitTimeout;
                }

                // A thread that ends pulses nothing: look again at least every 20 ms.
                System.Threading.Monitor.Wait(state, Math.Min(left, 20));
            }

            state.Owner = me;
            state.Count++;
            return 0;
        }
    }

    // ReleaseMutex (its page): it fails when the calling thread does not own the mutex (ERROR_NOT_OWNER).
    public int ReleaseMutex(SafeWaitHandle mutex)
    {
        SimulatedMutex state = MutexOf(mutex);
        int fault = Record("ReleaseMutex", state.Name);
        if (fault != 0)
        {
            return fault;
        }

        lock (state)
        {
            if (state.Owner != Thread.CurrentThread)
            {
                return Win32.ErrorNotOwner;
            }

            if (--state.Count == 0)
            {
                state.Owner = null;
                System.Threading.Monitor.PulseAll(state);
            }

            return 0;
        }
    }

    public void CloseMutex(SafeWaitHandle mutex)
    {
        SimulatedMutex state = MutexOf(mutex);
        Record("CloseMutex", state.Name);
        lock (_lock)
        {
            _mutexHandles.Remove(mutex);
            if (--state.Handles == 0)
            {
                _mutexes.Remove(state.Name);
            }
        }
    }

    public int DeleteFile(string path)
    {
        int fault = Record("DeleteFile", path);
        if (fault != 0)
        {
            return fault;
        }

        int error = Resolve(path, out string host);
        if (error != 0)
        {
            return error;
        }

        lock (_lock)
        {
            if (!File.Exists(host))
            {
                return Win32.ErrorFileNotFound;
            }

            FileState state = State(host);

            // DeleteFileW: "If an application attempts to delete a file that is read-only, the function fails with
            // ERROR_ACCESS_DENIED."
            if (state.DeletePending || (AttributesOf(host, state) & Win32.FileAttributeReadOnly) != 0)
            {
                return Win32.ErrorAccessDenied;
            }

            if (SharingConflict(state, Win32.Delete, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete))
            {
                return Win32.ErrorSharingViolation;
            }

            if (_handles.Values.Any(o => ReferenceEquals(o.File, state)))
            {
                state.DeletePending = true; // DeleteFileW: "marks a file for deletion on close"
                return 0;
            }

            Unlink(host, state);
            state.Group.References--;
            return 0;
        }
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

        int error = Resolve(linkPath, out string host);
        if (error != 0)
        {
            return error;
        }

        File.CreateSymbolicLink(host, targetPath);
        return 0;
    }

    public int CreateHardLink(string linkPath, string existingPath)
    {
        int fault = Record("CreateHardLink", linkPath);
        if (fault != 0)
        {
            return fault;
        }

        int error = Resolve(linkPath, out string link);
        string existing = string.Empty;
        if (error == 0)
        {
            error = Resolve(existingPath, out existing);
        }

        if (error != 0)
        {
            return error;
        }

        Infrastructure.FileSystemOps.HardLink(link, existing);
        return 0;
    }

    // RtlGetVersion (WDK): the build the simulated Windows is.
    public int GetOsBuild(out int build)
    {
        build = 0;
        int fault = Record("GetOsBuild", string.Empty);
        if (fault != 0)
        {
            return fault;
        }

        build = OsBuild;
        return 0;
    }

    /// <summary>The host path a Windows path names (drive map applied, \\?\ removed); the path itself otherwise.</summary>
    public string HostPath(string path)
    {
        string rest = path.StartsWith(ExtendedUncPrefix, StringComparison.OrdinalIgnoreCase) ? string.Concat(@"\\", path.AsSpan(ExtendedUncPrefix.Length))
            : path.StartsWith(ExtendedPrefix, StringComparison.Ordinal) ? path.Substring(ExtendedPrefix.Length)
            : path;
        if (rest.Length >= 3 && rest[1] == ':' && rest[2] == '\\' && _drives.TryGetValue(char.ToUpperInvariant(rest[0]), out string? root))
        {
            return root + rest.Substring(3).Replace('\\', Path.DirectorySeparatorChar);
        }

        return rest;
    }

    private static bool IsExtended(string path) => path.StartsWith(ExtendedPrefix, StringComparison.Ordinal);

    /// <summary>
    /// The host path for a path-taking call, or its error: a path without \\?\ of MAX_PATH characters or more fails
    /// (Naming Files: "the maximum length for a path is MAX_PATH ... 260 characters", the terminating null included;
    /// with \\?\ "the maximum total path length is 32,767". The code is ASSUMED A9: ERROR_FILENAME_EXCED_RANGE, which
    /// .NET turns into PathTooLongException).
    /// </summary>
    private int Resolve(string path, out string host)
    {
        host = string.Empty;
        if (!IsExtended(path) && path.Length >= MaxPath)
        {
            return Win32.ErrorFilenameExcedRange;
        }

        host = Path.GetFullPath(HostPath(path));
        return 0;
    }

    /// <summary>A host path as Windows names it: "\\?\S:\..." under a mapped drive (as GetFinalPathNameByHandleW gives it), else unchanged.</summary>
    private string WindowsFormOf(string host)
    {
        foreach ((char drive, string root) in _drives)
        {
            if (host.StartsWith(root, StringComparison.Ordinal) || host + Path.DirectorySeparatorChar == root)
            {
                string rest = host.Length > root.Length ? host.Substring(root.Length) : string.Empty;
                return $@"{ExtendedPrefix}{drive}:\{rest.Replace(Path.DirectorySeparatorChar, '\\')}";
            }
        }

        return host;
    }

    private int Dispose(Open open, uint flags)
    {
        if ((open.Access & Win32.Delete) == 0 || open.File is null)
        {
            return Win32.ErrorAccessDenied;
        }

        bool delete = (flags & Win32.FileDispositionFlagDelete) != 0;
        if (delete && (AttributesOf(open.Path, open.File) & Win32.FileAttributeReadOnly) != 0 && (flags & Win32.FileDispositionFlagIgnoreReadOnlyAttribute) == 0)
        {
            return Win32.ErrorAccessDenied;
        }

        if (!delete && open.Marked)
        {
            Violations.Add($"the delete mark of {open.Path} cleared (WDK FILE_DISPOSITION_INFORMATION: once marked, only closing the handle is legal)");
        }

        open.File.DeletePending = delete;
        open.Marked = delete;
        open.PosixDelete = delete && (flags & Win32.FileDispositionFlagPosixSemantics) != 0;
        return 0;
    }

    private void Unlink(string host, FileState state)
    {
        if (File.Exists(host))
        {
            // Renamed first: under Wine the host is Windows-like, and a file deleted while the simulator's own handles
            // to it are open would keep its name until they close; the simulated name must be free now.
            string tombstone = Path.Combine(Path.GetDirectoryName(host)!, ".simulated-deleted-" + Guid.NewGuid().ToString("N"));
            try
            {
                File.Move(host, tombstone);
                File.Delete(tombstone);
            }
            catch (IOException)
            {
                File.Delete(host);
            }
        }

        state.Named = false;
        if (_files.TryGetValue(host, out FileState? current) && ReferenceEquals(current, state))
        {
            _files.Remove(host);
        }
    }

    /// <summary>The open behind a handle, recorded as a call; a call on a handle marked for deletion is a violation.</summary>
    private Open Use(SafeFileHandle file, string name, out int fault, string? details = null)
    {
        Open open = OpenOf(file) ?? throw new InvalidOperationException($"{name} on a handle the simulator did not open");
        fault = Record(name, open.Path, details);
        if (open.Marked)
        {
            lock (_lock)
            {
                Violations.Add($"{name} on {open.Path}, a handle marked for deletion (WDK FILE_DISPOSITION_INFORMATION: only closing it is legal)");
            }
        }

        return open;
    }

    /// <summary>
    /// Forgets handles disposed without CloseHandle (a `using` on the handle): they are closed, but the calls were not
    /// made through the seam, so no disposition takes effect for them.
    /// </summary>
    private void ForgetDisposed()
    {
        foreach (SafeFileHandle closed in _handles.Where(h => h.Key.IsClosed && !h.Value.Foreign).Select(h => h.Key).ToList())
        {
            _handles.Remove(closed);
        }
    }

    private SimulatedMutex MutexOf(SafeWaitHandle mutex)
    {
        lock (_lock)
        {
            return _mutexHandles.TryGetValue(mutex, out SimulatedMutex? state) ? state : throw new InvalidOperationException("a mutex handle the simulator did not make, or closed");
        }
    }

    private Open? OpenOf(SafeFileHandle file)
    {
        lock (_lock)
        {
            return _handles.TryGetValue(file, out Open? open) ? open : null;
        }
    }

    /// <summary>
    /// CreateFile's share-mode rule (learn.microsoft.com/windows/win32/fileio/creating-and-opening-files, and
    /// MS-FSA 2.1.5.1.2.1, "Algorithm to Check Sharing Access to an Existing Stream or Directory"): an open fails
    /// with ERROR_SHARING_VIOLATION when it asks for read, write or delete access that an open handle does not
    /// share, or when it does not share an access an open handle already has. Access that is not read, write
    /// or delete (FILE_READ_ATTRIBUTES alone) takes part in neither test; nor does a kernel-mode open that
    /// ignores share access.
    /// </summary>
    private bool SharingConflict(FileState file, uint desiredAccess, uint shareMode)
    {
        uint wanted = SharingAccessOf(desiredAccess);
        if (wanted == 0)
        {
            return false;
        }

        ForgetDisposed();
        foreach (Open open in _handles.Values)
        {
            if (!ReferenceEquals(open.File, file) || open.IgnoresShareAccess)
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
        lock (_lock)
        {
            Calls.Add(details is null ? $"{name} {subject}" : $"{name} {subject} {details}");
        }

        return Fault(name, subject);
    }

    private FileState State(string host)
    {
        string full = Path.GetFullPath(host);
        lock (_lock)
        {
            ulong inode = RealFileIds.Read(full, followLinks: true)?.Inode ?? 0;
            if (!_files.TryGetValue(full, out FileState? state) || (inode != 0 && state.Inode != 0 && state.Inode != inode))
            {
                // First seen, or replaced behind the simulator's back: data of its own, one reference.
                _files[full] = state = new FileState(new BlockGroup(NextClusters())) { Inode = inode, Integrity = VolumeOf(full)?.DefaultIntegrity ?? default };
            }
            else if (state.Inode == 0)
            {
                state.Inode = inode;
            }

            return state;
        }
    }

    private IntegrityInformation FolderIntegrity(string folder)
    {
        string key = Path.TrimEndingDirectorySeparator(Path.GetFullPath(folder));
        return _folderIntegrity.TryGetValue(key, out IntegrityInformation integrity) ? integrity : VolumeOf(key)?.DefaultIntegrity ?? default;
    }

    private static uint AttributesOf(string host, FileState state)
    {
        uint attributes = state.SetAttributes ?? ((uint)File.GetAttributes(host) & (Win32.FileAttributeReadOnly | Win32.FileAttributeHidden | Win32.FileAttributeSystem | Win32.FileAttributeArchive));
        if (state.SetAttributes is not null && (File.GetAttributes(host) & FileAttributes.ReadOnly) == 0)
        {
            attributes &= ~Win32.FileAttributeReadOnly; // cleared on the host since (a test cleaning up)
        }

        attributes |= state.Sparse ? Win32.FileAttributeSparseFile : 0;
        attributes |= state.Integrity.ChecksumAlgorithm != Win32.ChecksumTypeNone ? Win32.FileAttributeIntegrityStream : 0;
        return attributes == 0 ? Win32.FileAttributeNormal : attributes;
    }

    private static Win32FileTimes TimesOf(string host, FileState? state)
    {
        long change = RealFileIds.ChangeTime(host).ToFileTimeUtc();
        if (state is not null)
        {
            change = state.ChangeTimeSet ?? Math.Max(change, state.ChangeTimeTouched);
        }

        return new Win32FileTimes(File.GetCreationTimeUtc(host).ToFileTimeUtc(), File.GetLastAccessTimeUtc(host).ToFileTimeUtc(), File.GetLastWriteTimeUtc(host).ToFileTimeUtc(), change);
    }

    /// <summary>ChangeTime moves with every change of the file (MS-FSA: data, end of file, attributes, sparseness).</summary>
    private static void Touch(FileState state)
    {
        state.ChangeTimeTouched = Math.Max(DateTime.UtcNow.ToFileTimeUtc(), state.ChangeTimeTouched + 1);
        state.ChangeTimeSet = null;
    }

    /// <summary>EaSize: the FILE_FULL_EA_INFORMATION list's size (MS-FSCC 2.4.15: 8 bytes, the name and its NUL, the value, each entry 4-byte aligned; simplified).</summary>
    private static uint ExtendedAttributesSizeOf(FileState state) =>
        (uint)state.ExtendedAttributes.Sum(e => (8 + e.Name.Length + 1 + e.ValueLength + 3) / 4 * 4);

    private static long AllocationOf(FileState state, long length, long cluster)
    {
        if (!state.Sparse)
        {
            return RoundUp(length, cluster);
        }

        return AllocatedClusters(state, length, cluster).Count() * cluster;
    }

    private static IEnumerable<long> AllocatedClusters(FileState state, long length, long cluster)
    {
        long clusters = RoundUp(length, cluster) / cluster;
        var set = new SortedSet<long>();
        foreach ((long offset, long count) in state.Allocated)
        {
            for (long c = offset / cluster; c < Math.Min(clusters, RoundUp(offset + count, cluster) / cluster); c++)
            {
                set.Add(c);
            }
        }

        return set;
    }

    private List<Win32Extent> ExtentsOf(FileState state, long length, long cluster, long residentBelow)
    {
        long clusters = RoundUp(length, cluster) / cluster;
        if (length < residentBelow)
        {
            return new List<Win32Extent>(); // resident data: "no extent locations or reference counts" (MS-FSCC 2.3.34)
        }

        ulong references = DelayedReferenceCounts ? 1 : (ulong)state.Group.References;
        var extents = new List<Win32Extent>();
        if (clusters == 0)
        {
            return extents;
        }

        if (!state.Sparse)
        {
            extents.Add(new Win32Extent(clusters, state.Group.Lcn, references));
            return extents;
        }

        // Runs of allocated and unallocated clusters; an unallocated run is reported with LCN -1.
        var allocated = new HashSet<long>(AllocatedClusters(state, length, cluster));
        for (long vcn = 0; vcn < clusters;)
        {
            bool isAllocated = allocated.Contains(vcn);
            long end = vcn;
            while (end < clusters && allocated.Contains(end) == isAllocated)
            {
                end++;
            }

            extents.Add(new Win32Extent(end, isAllocated ? state.Group.Lcn + vcn : -1, isAllocated ? references : 0));
            vcn = end;
        }

        return extents;
    }

    private static long RoundUp(long value, long cluster) => (value + cluster - 1) / cluster * cluster;

    private long ClusterOf(string host) => VolumeOf(host)?.ClusterSize ?? 4096;

    /// <summary>A run of LCNs of its own for a new file (far enough apart for any test file).</summary>
    private long NextClusters() => System.Threading.Interlocked.Add(ref _clusters, 1L << 24);

    /// <summary>
    /// The volume a file is on: the one its final path (junctions and links followed) lies in. Only
    /// GetVolumePathName works on the path as written (see there); the file system itself knows where a file is.
    /// </summary>
    private SimulatedVolume? VolumeOf(string host) => VolumeByPrefix(File.Exists(host) || Directory.Exists(host) ? RealFileIds.FinalPath(host) : host);

    private SimulatedVolume? VolumeByPrefix(string host) => _volumes
        .Select(v => (Volume: v, Root: Path.GetFullPath(HostPath(v.MountPath)).TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar))
        .Where(v => (host + Path.DirectorySeparatorChar).StartsWith(v.Root, StringComparison.OrdinalIgnoreCase))
        .OrderByDescending(v => v.Root.Length)
        .Select(v => v.Volume)
        .FirstOrDefault();

    private SimulatedVolume? VolumeByRoot(string root) => _volumes.FirstOrDefault(v =>
        string.Equals(v.Name, root, StringComparison.OrdinalIgnoreCase) || v.MountPath.Equals(root, StringComparison.OrdinalIgnoreCase)
        || (v.DriveLetter is char letter && string.Equals($@"{letter}:\", root, StringComparison.OrdinalIgnoreCase)));

    /// <summary>One open handle: whose, to what, with which access and share mode, and its disposition.</summary>
    private sealed class Open
    {
        public Open(string path, FileState? file, uint access, uint share)
        {
            Path = path;
            File = file;
            Access = access;
            Share = share;
        }

        /// <summary>Where the file is on the host: its name, the name a rename gave it, or where a rename over it put it aside.</summary>
        public string Path { get; set; }

        /// <summary>The file (null for a directory).</summary>
        public FileState? File { get; }

        public uint Access { get; }

        public uint Share { get; }

        public bool CanWrite => (Access & Win32.GenericWrite) != 0;

        public bool Foreign { get; init; }

        public bool IgnoresShareAccess { get; init; }

        /// <summary>This handle marked the file for deletion.</summary>
        public bool Marked { get; set; }

        public bool PosixDelete { get; set; }
    }

    /// <summary>Physical blocks some files map: where they lie and how many files reference them.</summary>
    private sealed class BlockGroup
    {
        public BlockGroup(long lcn) => Lcn = lcn;

        public long Lcn { get; }

        public int References { get; set; } = 1;
    }

    private sealed class FileState
    {
        public FileState(BlockGroup group) => Group = group;

        public ulong Inode { get; set; }

        public bool Sparse { get; set; }

        /// <summary>For a sparse file: the byte ranges that have clusters.</summary>
        public List<(long Offset, long Count)> Allocated { get; } = new();

        public IntegrityInformation Integrity { get; set; }

        public List<string> NamedStreams { get; } = new();

        public List<(string Name, int ValueLength)> ExtendedAttributes { get; } = new();

        /// <summary>Attributes last set through FileBasicInformation (the host cannot keep them all); null: the host's.</summary>
        public uint? SetAttributes { get; set; }

        public BlockGroup Group { get; set; }

        public bool DeletePending { get; set; }

        /// <summary>Written, not yet flushed: clones of it may read as zeros (<see cref="WrittenNotFlushed"/>).</summary>
        public bool Unflushed { get; set; }

        /// <summary>A clone is flushing it now (<see cref="UnflushedSourceClones.FlushedByTheClone"/>).</summary>
        public bool FlushingForAClone { get; set; }

        /// <summary>False once its name is gone (deleted, or a POSIX delete) while handles keep it open.</summary>
        public bool Named { get; set; } = true;

        public long ChangeTimeTouched { get; set; }

        public long? ChangeTimeSet { get; set; }
    }
}

/// <summary>A named mutex: its owning thread (null: none), how often that thread took it, and the handles to it.</summary>
internal sealed class SimulatedMutex
{
    public SimulatedMutex(string name) => Name = name;

    public string Name { get; }

    public Thread? Owner { get; set; }

    public int Count { get; set; }

    public int Handles { get; set; }
}

/// <summary>What a clone of a source whose data is still only in the cache gets (<see cref="SimulatedWindowsSystemCalls.UnflushedSources"/>).</summary>
internal enum UnflushedSourceClones
{
    /// <summary>
    /// microsoft/CopyOnWrite #12: the clone flushes the source first; a clone of the same file that starts during that
    /// flush goes on anyway and reads zeros. A clone alone, or one after another, is right.
    /// </summary>
    FlushedByTheClone,

    /// <summary>git-lfs #6312's report: a clone captures what is on the volume (zeros) until the file is flushed.</summary>
    ReadAsZeros,
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
        IntegrityStreams = fileSystem == "ReFS";
        DriveLetter = mountPath.Length == 3 && mountPath[1] == ':' && mountPath[2] == '\\' ? char.ToUpperInvariant(mountPath[0]) : null;
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

    /// <summary>The drive letter it answers to in GetLogicalDrives (its own for "X:\", settable for a host folder).</summary>
    public char? DriveLetter { get; set; }

    /// <summary>GetDriveTypeW's answer for its root.</summary>
    public uint DriveType { get; set; } = Win32.DriveFixed;

    /// <summary>FILE_NAMED_STREAMS (NTFS, ReFS: yes).</summary>
    public bool NamedStreams { get; set; } = true;

    /// <summary>FILE_SUPPORTS_EXTENDED_ATTRIBUTES.</summary>
    public bool ExtendedAttributes { get; set; } = true;

    /// <summary>FILE_SUPPORTS_INTEGRITY_STREAMS (ReFS).</summary>
    public bool IntegrityStreams { get; set; }

    /// <summary>
    /// FSCTL_SET_INTEGRITY_INFORMATION answers ERROR_ACCESS_DENIED: its page says "Minimum supported client: None
    /// supported", and reflink-copy met access denied on a Dev Drive (its #27). A client Windows or Dev Drive volume.
    /// </summary>
    public bool RefusesSetIntegrity { get; set; }

    /// <summary>
    /// What FSCTL_GET_INTEGRITY_INFORMATION reports as ClusterSizeInBytes, where it is not the volume's cluster (a
    /// filter or a file system answering otherwise); null: the volume's. ReFS clusters are 4 KiB or 64 KiB.
    /// </summary>
    public long? IntegrityQueryClusterSize { get; set; }

    /// <summary>FILE_SUPPORTS_POSIX_UNLINK_RENAME (ASSUMED A2 for ReFS).</summary>
    public bool PosixUnlinkRename { get; set; } = true;

    /// <summary>Whether CopyFile clones on this volume (Windows 11 from the Moment 5 update, on ReFS and Dev Drive).</summary>
    public bool CopyFileClones { get; set; }

    /// <summary>
    /// Files shorter than this keep their data in the file record ("A file system MAY allow resident data", MS-FSCC
    /// 2.3.34): they have no extents. 0 (none) by default: ReFS is taken to have no resident data (ASSUMED A11).
    /// </summary>
    public long ResidentDataBelow { get; set; }

    /// <summary>Room for allocated (non-sparse) clusters.</summary>
    public long FreeBytes { get; set; } = long.MaxValue;

    /// <summary>The integrity setting a new file gets on this volume (outside folders that set their own).</summary>
    public IntegrityInformation DefaultIntegrity { get; set; }

    /// <summary>GetVolumeInformationW's flags: case-preserving, Unicode, ACLs, and what is set above.</summary>
    public uint Flags =>
        0x2 | 0x4 | 0x8
        | (BlockRefcounting ? Win32.FileSupportsBlockRefcounting : 0)
        | (NamedStreams ? Win32.FileNamedStreams : 0)
        | (ExtendedAttributes ? Win32.FileSupportsExtendedAttributes : 0)
        | (IntegrityStreams ? Win32.FileSupportsIntegrityStreams : 0)
        | (PosixUnlinkRename ? Win32.FileSupportsPosixUnlinkRename : 0);
}
