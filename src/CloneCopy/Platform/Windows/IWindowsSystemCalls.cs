using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Every kernel32 and ntdll call CloneCopy makes on Windows, one method each: the one seam between CloneCopy's
/// Windows logic and the system. <see cref="WindowsSystemCalls"/> is the only real implementation (P/Invoke,
/// its declarations private to it); tests run the same logic over a simulator written from Microsoft's
/// documents (tests/Shared/Windows/SimulatedWindowsSystemCalls.cs). Adding a call touches those three.
/// Each method returns 0 on success or the Win32 error code (GetLastError; an NTSTATUS turned into one):
/// turning codes into attempts, retries and verdicts is the callers' job. Paths are passed as given:
/// <see cref="LongPathCalls"/>, wrapped around every implementation, adds the \\?\ prefix where .NET would.
/// </summary>
internal interface IWindowsSystemCalls
{
    /// <summary>GetVolumePathNameW: the mount point (drive root, mounted folder, share) that holds the path.</summary>
    int GetVolumePathName(string path, out string volumePath);

    /// <summary>GetVolumeNameForVolumeMountPointW: the volume GUID path (\\?\Volume{...}\) of a mount point.</summary>
    int GetVolumeNameForVolumeMountPoint(string volumeMountPoint, out string volumeName);

    /// <summary>QueryDosDeviceW: the first target of a DOS device name ("S:" → "\??\C:\src" for a subst drive).</summary>
    int QueryDosDevice(string deviceName, out string target);

    /// <summary>GetVolumeInformationW: the serial number, FILE_* capability flags and filesystem name.</summary>
    int GetVolumeInformation(string rootPath, out uint serialNumber, out uint fileSystemFlags, out string fileSystemName);

    /// <summary>
    /// GetDiskFreeSpaceW, for the cluster size (sectors per cluster × bytes per sector), of a root its page documents
    /// (a drive or UNC root, with its trailing backslash): only where the integrity query cannot tell it.
    /// </summary>
    int GetDiskFreeSpace(string rootPath, out uint sectorsPerCluster, out uint bytesPerSector);

    /// <summary>GetLogicalDrives: bit 0 for A:, bit 1 for B: and so on.</summary>
    int GetLogicalDrives(out uint drives);

    /// <summary>GetDriveTypeW of a root ("C:\"): DRIVE_FIXED (3), DRIVE_REMOTE (4) and so on. Never fails (DRIVE_UNKNOWN, 0).</summary>
    uint GetDriveType(string rootPath);

    /// <summary>GetFileAttributesW.</summary>
    int GetFileAttributes(string path, out uint attributes);

    /// <summary>CreateFileW. On failure <paramref name="handle"/> is invalid (and disposed).</summary>
    int CreateFile(string path, uint desiredAccess, uint shareMode, uint creationDisposition, uint flagsAndAttributes, out SafeFileHandle handle);

    /// <summary>GetFileInformationByHandle.</summary>
    int GetFileInformation(SafeFileHandle file, out Win32FileInformation information);

    /// <summary>GetFileInformationByHandleEx(FileIdInfo): the 128-bit file id ReFS needs (its 64-bit index is not unique).</summary>
    int GetFileId(SafeFileHandle file, out Win32FileId id);

    /// <summary>
    /// NtQueryInformationFile(FileAllInformation): attributes, the four times, end of file, allocation size,
    /// links, file index and the size of the extended attributes, in one call (the name that follows them is not
    /// read: STATUS_BUFFER_OVERFLOW for a long name still fills the fixed part and counts as success).
    /// </summary>
    int QueryAllInformation(SafeFileHandle file, out Win32FileAllInformation information);

    /// <summary>
    /// GetFileInformationByHandleEx(FileStreamInfo): the names of the file's data streams ("::$DATA" for the
    /// unnamed one, ":Zone.Identifier:$DATA" for a named one). ERROR_HANDLE_EOF means no streams at all.
    /// </summary>
    int GetStreamNames(SafeFileHandle file, out string[] names);

    /// <summary>NtQueryEaFile from the first entry: the names of the file's extended attributes.</summary>
    int GetExtendedAttributeNames(SafeFileHandle file, out string[] names);

    /// <summary>GetFinalPathNameByHandleW (normalized, DOS volume name), e.g. \\?\C:\dir\file.</summary>
    int GetFinalPathName(SafeFileHandle file, out string path);

    /// <summary>FSCTL_SET_SPARSE with SetSparse = <paramref name="sparse"/>.</summary>
    int SetSparse(SafeFileHandle file, bool sparse);

    /// <summary>
    /// FSCTL_GET_INTEGRITY_INFORMATION (0x9027C): the file's integrity setting and the volume's ClusterSizeInBytes
    /// (FSCTL_GET_INTEGRITY_INFORMATION_BUFFER, MS-FSCC 2.3.20), the cluster size reflink-copy uses (the CopyOnWrite library asks GetDiskFreeSpaceW).
    /// </summary>
    int GetIntegrityInformation(SafeFileHandle file, out IntegrityInformation information, out long clusterSize);

    /// <summary>FSCTL_SET_INTEGRITY_INFORMATION (0x9C280); only allowed while the file is empty.</summary>
    int SetIntegrityInformation(SafeFileHandle file, IntegrityInformation information);

    /// <summary>SetFileInformationByHandle(FileEndOfFileInfo).</summary>
    int SetEndOfFile(SafeFileHandle file, long length);

    /// <summary>
    /// FlushFileBuffers: writes the file's cached data to the volume. "The handle must have the GENERIC_WRITE access
    /// right" (its page).
    /// </summary>
    int FlushFileBuffers(SafeFileHandle file);

    /// <summary>FSCTL_DUPLICATE_EXTENTS_TO_FILE on <paramref name="destination"/>: share one range of <paramref name="source"/>'s clusters.</summary>
    int DuplicateExtents(SafeFileHandle source, SafeFileHandle destination, long sourceOffset, long destinationOffset, long byteCount);

    /// <summary>
    /// SetFileInformationByHandle(FileBasicInfo): the four times (0 leaves a time as it is) and the attributes
    /// (0 leaves them as they are; FILE_ATTRIBUTE_NORMAL clears them).
    /// </summary>
    int SetBasicInformation(SafeFileHandle file, Win32FileTimes times, uint attributes);

    /// <summary>
    /// SetFileInformationByHandle(FileDispositionInfo): with <paramref name="delete"/> true the file is deleted
    /// when its last handle closes, whoever holds that handle; false cancels it. Needs DELETE access.
    /// </summary>
    int SetDeleteOnClose(SafeFileHandle file, bool delete);

    /// <summary>SetFileInformationByHandle(FileDispositionInfoEx) with FILE_DISPOSITION_FLAG_* <paramref name="flags"/>. Needs DELETE access.</summary>
    int SetDispositionEx(SafeFileHandle file, uint flags);

    /// <summary>CloseHandle: where a delete-on-close disposition takes effect (once no other handle is open).</summary>
    void CloseHandle(SafeFileHandle file);

    /// <summary>CopyFileW with bFailIfExists: Windows' own copy, the one MSBuild's Copy and File.Copy use.</summary>
    int CopyFile(string source, string destination);

    /// <summary>
    /// FSCTL_GET_RETRIEVAL_POINTERS from VCN 0, with room for <paramref name="maximum"/> extents: ERROR_MORE_DATA
    /// (with the extents that fit) when the file has more, ERROR_HANDLE_EOF when it has no clusters at all. An
    /// extent's LCN is -1 where nothing is allocated. The real call reports no reference count (0); the simulator does.
    /// </summary>
    int GetExtents(SafeFileHandle file, int maximum, out Win32Extent[] extents);

    /// <summary>
    /// SetFileInformationByHandle(FileRenameInfoEx) with FILE_RENAME_FLAG_* <paramref name="flags"/>: gives the open
    /// file (opened with DELETE access) the name <paramref name="newPath"/>, a full path. Windows 10 1607 and later (the
    /// WDK headers gate the flags at _WIN32_WINNT_WIN10_RS1); older systems and some filesystems answer
    /// ERROR_INVALID_PARAMETER or ERROR_NOT_SUPPORTED.
    /// </summary>
    int RenameByHandle(SafeFileHandle file, string newPath, uint flags);

    /// <summary>MoveFileExW with MOVEFILE_REPLACE_EXISTING (and nothing else: never a copy across volumes).</summary>
    int MoveFileReplacing(string existingPath, string newPath);

    /// <summary>DeleteFileW.</summary>
    int DeleteFile(string path);

    /// <summary>CreateSymbolicLinkW.</summary>
    int CreateSymbolicLink(string linkPath, string targetPath, uint flags);

    /// <summary>CreateHardLinkW.</summary>
    int CreateHardLink(string linkPath, string existingPath);

    /// <summary>RtlGetVersion's build number (19045, 22631, 26100...).</summary>
    int GetOsBuild(out int build);

    /// <summary>
    /// CreateMutexW, not owned, with the name <paramref name="name"/> (in the Local\ namespace: the caller's session): a
    /// new mutex, or the existing one of that name (ERROR_ALREADY_EXISTS is success here). Any process of the session
    /// that asks for the name gets the same kernel object (Kernel Object Namespaces).
    /// </summary>
    int CreateMutex(string name, out SafeWaitHandle mutex);

    /// <summary>
    /// WaitForSingleObject on a mutex, its answer as it is: 0 (WAIT_OBJECT_0) or WAIT_ABANDONED (0x80) once this thread
    /// owns it (WAIT_ABANDONED: its last owner thread ended without releasing it, and the wait gives ownership all the
    /// same: Mutex Objects), WAIT_TIMEOUT (258) after <paramref name="milliseconds"/>, else (WAIT_FAILED) the error.
    /// </summary>
    int WaitForMutex(SafeWaitHandle mutex, int milliseconds);

    /// <summary>ReleaseMutex: on the thread that owns it (ERROR_NOT_OWNER otherwise).</summary>
    int ReleaseMutex(SafeWaitHandle mutex);

    /// <summary>CloseHandle of a mutex (the object goes with its last handle).</summary>
    void CloseMutex(SafeWaitHandle mutex);
}

/// <summary>What GetFileInformationByHandle says about an open file, in managed form.</summary>
internal readonly record struct Win32FileInformation(uint Attributes, uint VolumeSerialNumber, ulong FileIndex, uint NumberOfLinks, long Length);

/// <summary>FILE_ID_INFO: the volume serial number and the 128-bit file id.</summary>
internal readonly record struct Win32FileId(ulong VolumeSerialNumber, ulong IdLow, ulong IdHigh);

/// <summary>The four FILETIMEs of FILE_BASIC_INFO (100 ns since 1601, UTC); 0 in a set means "leave it".</summary>
internal readonly record struct Win32FileTimes(long CreationTime, long LastAccessTime, long LastWriteTime, long ChangeTime);

/// <summary>The parts of FILE_ALL_INFORMATION CloneCopy reads.</summary>
internal readonly record struct Win32FileAllInformation(
    uint Attributes,
    Win32FileTimes Times,
    long AllocationSize,
    long EndOfFile,
    uint NumberOfLinks,
    long IndexNumber,
    uint ExtendedAttributesSize);

/// <summary>One extent of RETRIEVAL_POINTERS_AND_REFCOUNT_BUFFER: where it ends (VCN), where it lies (LCN, -1 unallocated), its reference count.</summary>
internal readonly record struct Win32Extent(long NextVcn, long Lcn, ulong ReferenceCount);

/// <summary>The part of the integrity-stream setting a clone's destination must share with its source.</summary>
internal readonly record struct IntegrityInformation(ushort ChecksumAlgorithm, uint Flags);
