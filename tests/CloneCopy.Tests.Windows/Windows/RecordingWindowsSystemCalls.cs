using System;
using System.Collections.Generic;
using System.Linq;
using CloneCopy.Platform.Windows;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The real kernel32 (under Wine), recorded call by call, with two optional changes for the block-clone
/// tests: <see cref="ClaimBlockRefcounting"/> makes every volume report FILE_SUPPORTS_BLOCK_REFCOUNTING
/// (Wine's NTFS never does), and <see cref="Fsctl"/> answers FSCTL_DUPLICATE_EXTENTS_TO_FILE and the
/// integrity FSCTLs (which Wine answers with ERROR_NOT_SUPPORTED). Everything else (volume paths, CreateFile,
/// FSCTL_SET_SPARSE, end of file, file information, DeleteFile) is Wine's own answer.
/// </summary>
internal sealed class RecordingWindowsSystemCalls : IWindowsSystemCalls
{
    private readonly WindowsSystemCalls _real = WindowsSystemCalls.Instance;
    private readonly Dictionary<SafeFileHandle, IntegrityInformation> _integrity = new(ReferenceEqualityComparer.Instance);

    public List<string> Calls { get; } = new();

    public bool ClaimBlockRefcounting { get; init; }

    /// <summary>
    /// Given the FSCTL's name ("DuplicateExtents", "GetIntegrityInformation", "SetIntegrityInformation") and the
    /// call's number for that name (1, 2...), an error code, 0 for success, or null to let Wine answer.
    /// A scripted successful DuplicateExtents moves the bytes itself (ReadFile/WriteFile on the real handles).
    /// </summary>
    public Func<string, int, int?> Fsctl { get; init; } = (_, _) => null;

    public IEnumerable<string> CallsTo(string name) => Calls.Where(c => c.StartsWith(name + " ", StringComparison.Ordinal));

    public int GetVolumePathName(string path, out string volumePath) => Record("GetVolumePathName", path, _real.GetVolumePathName(path, out volumePath));

    public int GetVolumeNameForVolumeMountPoint(string volumeMountPoint, out string volumeName) =>
        Record("GetVolumeNameForVolumeMountPoint", volumeMountPoint, _real.GetVolumeNameForVolumeMountPoint(volumeMountPoint, out volumeName));

    public int QueryDosDevice(string deviceName, out string target) => Record("QueryDosDevice", deviceName, _real.QueryDosDevice(deviceName, out target));

    public int GetVolumeInformation(string rootPath, out uint serialNumber, out uint fileSystemFlags, out string fileSystemName)
    {
        int error = _real.GetVolumeInformation(rootPath, out serialNumber, out fileSystemFlags, out fileSystemName);
        if (error == 0 && ClaimBlockRefcounting)
        {
            fileSystemFlags |= Win32.FileSupportsBlockRefcounting;
        }

        return Record("GetVolumeInformation", rootPath, error);
    }

    public int GetDiskFreeSpace(string rootPath, out uint sectorsPerCluster, out uint bytesPerSector) =>
        Record("GetDiskFreeSpace", rootPath, _real.GetDiskFreeSpace(rootPath, out sectorsPerCluster, out bytesPerSector));

    public int CreateFile(string path, uint desiredAccess, uint shareMode, uint creationDisposition, uint flagsAndAttributes, out SafeFileHandle handle) =>
        Record("CreateFile", $"{path} {(creationDisposition == Win32.CreateNew ? "CreateNew" : "OpenExisting")}", _real.CreateFile(path, desiredAccess, shareMode, creationDisposition, flagsAndAttributes, out handle));

    public int GetFileInformation(SafeFileHandle file, out Win32FileInformation information) => Record("GetFileInformation", "", _real.GetFileInformation(file, out information));

    public int GetFileId(SafeFileHandle file, out Win32FileId id) => Record("GetFileId", "", _real.GetFileId(file, out id));

    public int GetStreamNames(SafeFileHandle file, out string[] names) => Record("GetStreamNames", "", _real.GetStreamNames(file, out names));

    public int GetExtendedAttributesSize(SafeFileHandle file, out uint size) => Record("GetExtendedAttributesSize", "", _real.GetExtendedAttributesSize(file, out size));

    public int GetFinalPathName(SafeFileHandle file, out string path) => Record("GetFinalPathName", "", _real.GetFinalPathName(file, out path));

    public int SetSparse(SafeFileHandle file, bool sparse) => Record("SetSparse", $"{sparse}", _real.SetSparse(file, sparse));

    public int GetIntegrityInformation(SafeFileHandle file, out IntegrityInformation information)
    {
        int? scripted = Scripted("GetIntegrityInformation");
        if (scripted is null)
        {
            return Record("GetIntegrityInformation", "wine", _real.GetIntegrityInformation(file, out information));
        }

        information = _integrity.TryGetValue(file, out IntegrityInformation known) ? known : new IntegrityInformation(2, 0);
        return Record("GetIntegrityInformation", "scripted", scripted.Value);
    }

    public int SetIntegrityInformation(SafeFileHandle file, IntegrityInformation information)
    {
        int? scripted = Scripted("SetIntegrityInformation");
        if (scripted is null)
        {
            return Record("SetIntegrityInformation", "wine", _real.SetIntegrityInformation(file, information));
        }

        if (scripted == 0)
        {
            _integrity[file] = information;
        }

        return Record("SetIntegrityInformation", $"scripted {information.ChecksumAlgorithm}", scripted.Value);
    }

    public int SetEndOfFile(SafeFileHandle file, long length) => Record("SetEndOfFile", $"{length}", _real.SetEndOfFile(file, length));

    public int DuplicateExtents(SafeFileHandle source, SafeFileHandle destination, long sourceOffset, long destinationOffset, long byteCount)
    {
        int? scripted = Scripted("DuplicateExtents");
        if (scripted is null)
        {
            return Record("DuplicateExtents", $"wine {sourceOffset} {byteCount}", _real.DuplicateExtents(source, destination, sourceOffset, destinationOffset, byteCount));
        }

        if (scripted == 0)
        {
            // What a clone would leave: the source's bytes in the destination's range, within its end of file.
            long length = Math.Min(byteCount, System.IO.RandomAccess.GetLength(destination) - destinationOffset);
            var buffer = new byte[Math.Max(0, length)];
            int read = System.IO.RandomAccess.Read(source, buffer, sourceOffset);
            System.IO.RandomAccess.Write(destination, buffer.AsSpan(0, read), destinationOffset);
        }

        return Record("DuplicateExtents", $"scripted {sourceOffset} {byteCount}", scripted.Value);
    }

    public int SetDeleteOnClose(SafeFileHandle file, bool delete) => Record("SetDeleteOnClose", $"{delete}", _real.SetDeleteOnClose(file, delete));

    public void CloseHandle(SafeFileHandle file)
    {
        Record("CloseHandle", "", 0);
        _real.CloseHandle(file);
    }

    public int CopyFile(string source, string destination) => Record("CopyFile", destination, _real.CopyFile(source, destination));

    public int GetFirstCluster(SafeFileHandle file, out long logicalCluster) => Record("GetFirstCluster", "", _real.GetFirstCluster(file, out logicalCluster));

    public int DeleteFile(string path) => Record("DeleteFile", path, _real.DeleteFile(path));

    public int CreateSymbolicLink(string linkPath, string targetPath, uint flags) => Record("CreateSymbolicLink", linkPath, _real.CreateSymbolicLink(linkPath, targetPath, flags));

    public int CreateHardLink(string linkPath, string existingPath) => Record("CreateHardLink", linkPath, _real.CreateHardLink(linkPath, existingPath));

    private int? Scripted(string name) => Fsctl(name, CallsTo(name).Count() + 1);

    private int Record(string name, string subject, int error)
    {
        Calls.Add($"{name} {subject} => {error}");
        return error;
    }
}
