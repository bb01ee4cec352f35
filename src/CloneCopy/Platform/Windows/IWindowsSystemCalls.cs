using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Every kernel32 and ntdll call CloneCopy makes on Windows, one method each: the one seam between CloneCopy's
/// Windows logic and the system. <see cref="WindowsSystemCalls"/> is the only real implementation (P/Invoke,
/// its declarations private to it); tests run the same logic over a simulator written from Microsoft's
/// documents (tests/Shared/Windows/SimulatedWindowsSystemCalls.cs). Adding a call touches those three.
/// Each method returns 0 on success or the Win32 error code (GetLastError; an NTSTATUS turned into one):
/// turning codes into attempts, retries and verdicts is the callers' job.
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

    /// <summary>GetDiskFreeSpaceW, for the cluster size (sectors per cluster × bytes per sector).</summary>
    int GetDiskFreeSpace(string rootPath, out uint sectorsPerCluster, out uint bytesPerSector);

    /// <summary>CreateFileW. On failure <paramref name="handle"/> is invalid (and disposed).</summary>
    int CreateFile(string path, uint desiredAccess, uint shareMode, uint creationDisposition, uint flagsAndAttributes, out SafeFileHandle handle);

    /// <summary>GetFileInformationByHandle.</summary>
    int GetFileInformation(SafeFileHandle file, out Win32FileInformation information);

    /// <summary>GetFileInformationByHandleEx(FileIdInfo): the 128-bit file id ReFS needs (its 64-bit index is not unique).</summary>
    int GetFileId(SafeFileHandle file, out Win32FileId id);

    /// <summary>
    /// GetFileInformationByHandleEx(FileStreamInfo): the names of the file's data streams ("::$DATA" for the
    /// unnamed one, ":Zone.Identifier:$DATA" for a named one). ERROR_HANDLE_EOF means no streams at all.
    /// </summary>
    int GetStreamNames(SafeFileHandle file, out string[] names);

    /// <summary>NtQueryInformationFile(FileEaInformation): the size of the file's extended attributes, 0 for none.</summary>
    int GetExtendedAttributesSize(SafeFileHandle file, out uint size);

    /// <summary>GetFinalPathNameByHandleW (normalized, DOS volume name), e.g. \\?\C:\dir\file.</summary>
    int GetFinalPathName(SafeFileHandle file, out string path);

    /// <summary>FSCTL_SET_SPARSE with SetSparse = <paramref name="sparse"/>.</summary>
    int SetSparse(SafeFileHandle file, bool sparse);

    /// <summary>FSCTL_GET_INTEGRITY_INFORMATION (0x9027C).</summary>
    int GetIntegrityInformation(SafeFileHandle file, out IntegrityInformation information);

    /// <summary>FSCTL_SET_INTEGRITY_INFORMATION (0x9C280); only allowed while the file is empty.</summary>
    int SetIntegrityInformation(SafeFileHandle file, IntegrityInformation information);

    /// <summary>SetFileInformationByHandle(FileEndOfFileInfo).</summary>
    int SetEndOfFile(SafeFileHandle file, long length);

    /// <summary>FSCTL_DUPLICATE_EXTENTS_TO_FILE on <paramref name="destination"/>: share one range of <paramref name="source"/>'s clusters.</summary>
    int DuplicateExtents(SafeFileHandle source, SafeFileHandle destination, long sourceOffset, long destinationOffset, long byteCount);

    /// <summary>
    /// SetFileInformationByHandle(FileDispositionInfo): with <paramref name="delete"/> true the file is deleted
    /// when its last handle closes, whoever holds that handle; false cancels it. Needs DELETE access.
    /// </summary>
    int SetDeleteOnClose(SafeFileHandle file, bool delete);

    /// <summary>CloseHandle: where a delete-on-close disposition takes effect (once no other handle is open).</summary>
    void CloseHandle(SafeFileHandle file);

    /// <summary>CopyFileW with bFailIfExists: Windows' own copy, the one MSBuild's Copy and File.Copy use.</summary>
    int CopyFile(string source, string destination);

    /// <summary>
    /// FSCTL_GET_RETRIEVAL_POINTERS from VCN 0: the logical cluster number where the file's first extent lies
    /// (-1 for an extent not allocated yet). Two files whose first extents share an LCN share those clusters.
    /// </summary>
    int GetFirstCluster(SafeFileHandle file, out long logicalCluster);

    /// <summary>DeleteFileW.</summary>
    int DeleteFile(string path);

    /// <summary>CreateSymbolicLinkW.</summary>
    int CreateSymbolicLink(string linkPath, string targetPath, uint flags);

    /// <summary>CreateHardLinkW.</summary>
    int CreateHardLink(string linkPath, string existingPath);
}

/// <summary>What GetFileInformationByHandle says about an open file, in managed form.</summary>
internal readonly record struct Win32FileInformation(uint Attributes, uint VolumeSerialNumber, ulong FileIndex, uint NumberOfLinks, long Length);

/// <summary>FILE_ID_INFO: the volume serial number and the 128-bit file id.</summary>
internal readonly record struct Win32FileId(ulong VolumeSerialNumber, ulong IdLow, ulong IdHigh);

/// <summary>The part of the integrity-stream setting a clone's destination must share with its source.</summary>
internal readonly record struct IntegrityInformation(ushort ChecksumAlgorithm, uint Flags);
