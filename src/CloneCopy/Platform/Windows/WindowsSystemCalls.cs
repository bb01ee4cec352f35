using System;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// The real <see cref="IWindowsSystemCalls"/>: each method is one P/Invoke (two where a buffer must grow), its
/// result turned into "0 or the Win32 error". No decisions are made here.
/// </summary>
internal sealed partial class WindowsSystemCalls : IWindowsSystemCalls
{
    public static WindowsSystemCalls Instance { get; } = new();

    private WindowsSystemCalls()
    {
    }

    /// <summary>RtlGetVersion's build number (the caller falls back to .NET's answer when it fails).</summary>
    public static int? RunningBuild()
    {
        var info = new Native.OsVersionInfo { OsVersionInfoSize = Marshal.SizeOf<Native.OsVersionInfo>() };
        return Native.RtlGetVersion(ref info) == 0 ? info.BuildNumber : null;
    }

    public int GetVolumePathName(string path, out string volumePath)
    {
        // The answer is never longer than the question (plus a trailing separator).
        var buffer = new char[Math.Max(path.Length + 2, 262)];
        volumePath = Native.GetVolumePathName(path, buffer, (uint)buffer.Length) ? Terminated(buffer) : string.Empty;
        return volumePath.Length > 0 ? 0 : LastErrorOr(Win32.ErrorInvalidName);
    }

    public int GetVolumeNameForVolumeMountPoint(string volumeMountPoint, out string volumeName)
    {
        var buffer = new char[64]; // "\\?\Volume{GUID}\" is 49 characters
        volumeName = Native.GetVolumeNameForVolumeMountPoint(volumeMountPoint, buffer, (uint)buffer.Length) ? Terminated(buffer) : string.Empty;
        return volumeName.Length > 0 ? 0 : LastErrorOr(Win32.ErrorInvalidParameter);
    }

    public int QueryDosDevice(string deviceName, out string target)
    {
        for (int size = 1024; size <= 65536; size *= 4)
        {
            var buffer = new char[size];
            if (Native.QueryDosDevice(deviceName, buffer, (uint)buffer.Length) != 0)
            {
                target = Terminated(buffer); // the first of the list: the current mapping
                return 0;
            }

            int error = Marshal.GetLastWin32Error();
            if (error != Win32.ErrorInsufficientBuffer)
            {
                target = string.Empty;
                return error;
            }
        }

        target = string.Empty;
        return Win32.ErrorInsufficientBuffer;
    }

    public int GetVolumeInformation(string rootPath, out uint serialNumber, out uint fileSystemFlags, out string fileSystemName)
    {
        var name = new char[64];
        if (Native.GetVolumeInformation(rootPath, null, 0, out serialNumber, out _, out fileSystemFlags, name, (uint)name.Length))
        {
            fileSystemName = Terminated(name);
            return 0;
        }

        fileSystemName = string.Empty;
        return LastErrorOr(Win32.ErrorGenFailure);
    }

    public int GetDiskFreeSpace(string rootPath, out uint sectorsPerCluster, out uint bytesPerSector) =>
        Native.GetDiskFreeSpace(rootPath, out sectorsPerCluster, out bytesPerSector, out _, out _) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    public int GetLogicalDrives(out uint drives)
    {
        drives = Native.GetLogicalDrives();
        return drives != 0 ? 0 : LastErrorOr(Win32.ErrorGenFailure);
    }

    public uint GetDriveType(string rootPath) => Native.GetDriveType(rootPath);

    public int GetFileAttributes(string path, out uint attributes)
    {
        attributes = Native.GetFileAttributes(path);
        return attributes != Win32.InvalidFileAttributes ? 0 : LastErrorOr(Win32.ErrorGenFailure);
    }

    public int CreateFile(string path, uint desiredAccess, uint shareMode, uint creationDisposition, uint flagsAndAttributes, out SafeFileHandle handle)
    {
        handle = Native.CreateFile(path, desiredAccess, shareMode, IntPtr.Zero, creationDisposition, flagsAndAttributes, IntPtr.Zero);
        if (!handle.IsInvalid)
        {
            return 0;
        }

        int error = LastErrorOr(Win32.ErrorGenFailure);
        handle.Dispose();
        return error;
    }

    public int GetFileInformation(SafeFileHandle file, out Win32FileInformation information)
    {
        if (!Native.GetFileInformationByHandle(file, out Native.ByHandleFileInformation raw))
        {
            information = default;
            return LastErrorOr(Win32.ErrorGenFailure);
        }

        information = new Win32FileInformation(
            raw.FileAttributes,
            raw.VolumeSerialNumber,
            ((ulong)raw.FileIndexHigh << 32) | raw.FileIndexLow,
            raw.NumberOfLinks,
            (long)(((ulong)raw.FileSizeHigh << 32) | raw.FileSizeLow));
        return 0;
    }

    public int GetFileId(SafeFileHandle file, out Win32FileId id)
    {
        if (!Native.GetFileInformationByHandleEx(file, Native.FileIdInfoClass, out Native.FileIdInfo raw, (uint)Marshal.SizeOf<Native.FileIdInfo>()))
        {
            id = default;
            return LastErrorOr(Win32.ErrorGenFailure);
        }

        id = new Win32FileId(raw.VolumeSerialNumber, raw.FileIdLow, raw.FileIdHigh);
        return 0;
    }

    public int QueryAllInformation(SafeFileHandle file, out Win32FileAllInformation information)
    {
        // FILE_ALL_INFORMATION (x64): FILE_BASIC_INFORMATION at 0 (four times, attributes; 40 bytes),
        // FILE_STANDARD_INFORMATION at 40 (AllocationSize, EndOfFile, NumberOfLinks, two BOOLEANs; 24),
        // FILE_INTERNAL_INFORMATION at 64 (IndexNumber), FILE_EA_INFORMATION at 72 (EaSize), then access, position,
        // mode and alignment, and FILE_NAME_INFORMATION at 96. The name is not wanted: a buffer too small for it
        // gives STATUS_BUFFER_OVERFLOW with every fixed field filled.
        var buffer = new byte[512];
        int status = Native.NtQueryInformationFile(file, out _, buffer, (uint)buffer.Length, Native.FileAllInformationClass);
        if (status != 0 && status != Native.StatusBufferOverflow)
        {
            information = default;
            return Native.RtlNtStatusToDosError(status);
        }

        information = new Win32FileAllInformation(
            BitConverter.ToUInt32(buffer, 32),
            new Win32FileTimes(BitConverter.ToInt64(buffer, 0), BitConverter.ToInt64(buffer, 8), BitConverter.ToInt64(buffer, 16), BitConverter.ToInt64(buffer, 24)),
            BitConverter.ToInt64(buffer, 40),
            BitConverter.ToInt64(buffer, 48),
            BitConverter.ToUInt32(buffer, 56),
            BitConverter.ToInt64(buffer, 64),
            BitConverter.ToUInt32(buffer, 72));
        return 0;
    }

    public int GetStreamNames(SafeFileHandle file, out string[] names)
    {
        names = Array.Empty<string>();
        for (int size = 4096; size <= 1 << 20; size *= 4)
        {
            var buffer = new byte[size];
            if (!Native.GetFileStreamInformation(file, Native.FileStreamInfoClass, buffer, (uint)buffer.Length))
            {
                int error = LastErrorOr(Win32.ErrorGenFailure);
                if (error == Win32.ErrorMoreData || error == Win32.ErrorInsufficientBuffer)
                {
                    continue;
                }

                return error;
            }

            // FILE_STREAM_INFO: NextEntryOffset (4), StreamNameLength in bytes (4), StreamSize (8),
            // StreamAllocationSize (8), then the name; entries chained by NextEntryOffset, 0 for the last.
            // Every offset and length is checked against the buffer: a reply that does not parse is ERROR_INVALID_DATA,
            // which leaves this file to CopyFile, never an exception (this parser has not run on a real Windows yet).
            var found = new System.Collections.Generic.List<string>();
            int offset = 0;
            while (true)
            {
                if (offset < 0 || offset > buffer.Length - 24)
                {
                    return Win32.ErrorInvalidData;
                }

                int next = BitConverter.ToInt32(buffer, offset);
                int nameLength = BitConverter.ToInt32(buffer, offset + 4);
                if (nameLength < 0 || nameLength % 2 != 0 || nameLength > buffer.Length - offset - 24 || next < 0)
                {
                    return Win32.ErrorInvalidData;
                }

                found.Add(System.Text.Encoding.Unicode.GetString(buffer, offset + 24, nameLength));
                if (next == 0)
                {
                    break;
                }

                offset += next;
            }

            names = found.ToArray();
            return 0;
        }

        return Win32.ErrorInsufficientBuffer;
    }

    public int GetExtendedAttributeNames(SafeFileHandle file, out string[] names)
    {
        // FILE_FULL_EA_INFORMATION entries: NextEntryOffset (4), Flags (1), EaNameLength (1), EaValueLength (2),
        // then the name (8-bit characters) and its value. A file's extended attributes hold at most 64 KiB.
        names = Array.Empty<string>();
        var buffer = new byte[65536 + 1024];
        int status = Native.NtQueryEaFile(file, out Native.IoStatusBlock ioStatus, buffer, (uint)buffer.Length, false, IntPtr.Zero, 0, IntPtr.Zero, true);
        if (status == Native.StatusNoEasOnFile)
        {
            return 0;
        }

        if (status != 0)
        {
            return Native.RtlNtStatusToDosError(status);
        }

        // The bytes written (IO_STATUS_BLOCK.Information); the whole buffer where a file system leaves it 0 (zeros
        // after the last entry, whose NextEntryOffset is 0, are never read).
        ulong written = (ulong)ioStatus.Information;
        return ExtendedAttributeReply.Names(buffer, written == 0 ? buffer.Length : (int)Math.Min((ulong)buffer.Length, written), out names);
    }

    public int GetFinalPathName(SafeFileHandle file, out string path)
    {
        var buffer = new char[512];
        for (int attempt = 0; attempt < 3; attempt++)
        {
            uint length = Native.GetFinalPathNameByHandle(file, buffer, (uint)buffer.Length, Native.FileNameNormalized);
            if (length == 0)
            {
                break;
            }

            if (length < buffer.Length)
            {
                path = new string(buffer, 0, (int)length);
                return 0;
            }

            buffer = new char[length + 1]; // too small: the answer is the size needed
        }

        path = string.Empty;
        return LastErrorOr(Win32.ErrorGenFailure);
    }

    public int SetSparse(SafeFileHandle file, bool sparse)
    {
        byte setSparse = sparse ? (byte)1 : (byte)0; // FILE_SET_SPARSE_BUFFER: one BOOLEAN
        return Native.DeviceIoControl(file, Win32.FsctlSetSparse, ref setSparse, 1, IntPtr.Zero, 0, out _, IntPtr.Zero) ? 0 : LastErrorOr(Win32.ErrorGenFailure);
    }

    public int GetIntegrityInformation(SafeFileHandle file, out IntegrityInformation information, out long clusterSize)
    {
        if (!Native.DeviceIoControl(file, Win32.FsctlGetIntegrityInformation, IntPtr.Zero, 0, out Native.GetIntegrityInformationBuffer raw, (uint)Marshal.SizeOf<Native.GetIntegrityInformationBuffer>(), out _, IntPtr.Zero))
        {
            information = default;
            clusterSize = 0;
            return LastErrorOr(Win32.ErrorGenFailure);
        }

        information = new IntegrityInformation(raw.ChecksumAlgorithm, raw.Flags);
        clusterSize = raw.ClusterSizeInBytes;
        return 0;
    }

    public int SetIntegrityInformation(SafeFileHandle file, IntegrityInformation information)
    {
        var raw = new Native.SetIntegrityInformationBuffer { ChecksumAlgorithm = information.ChecksumAlgorithm, Flags = information.Flags };
        return Native.DeviceIoControl(file, Win32.FsctlSetIntegrityInformation, ref raw, (uint)Marshal.SizeOf<Native.SetIntegrityInformationBuffer>(), IntPtr.Zero, 0, out _, IntPtr.Zero) ? 0 : LastErrorOr(Win32.ErrorGenFailure);
    }

    public int SetEndOfFile(SafeFileHandle file, long length) =>
        Native.SetFileInformationByHandle(file, Native.FileEndOfFileInfoClass, ref length, sizeof(long)) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    public int FlushFileBuffers(SafeFileHandle file) =>
        Native.FlushFileBuffers(file) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    public int DuplicateExtents(SafeFileHandle source, SafeFileHandle destination, long sourceOffset, long destinationOffset, long byteCount)
    {
        bool added = false;
        try
        {
            source.DangerousAddRef(ref added); // the raw handle goes inside a structure: keep it open meanwhile
            var data = new Native.DuplicateExtentsData
            {
                FileHandle = source.DangerousGetHandle(),
                SourceFileOffset = sourceOffset,
                TargetFileOffset = destinationOffset,
                ByteCount = byteCount,
            };
            return Native.DeviceIoControl(destination, Win32.FsctlDuplicateExtentsToFile, ref data, (uint)Marshal.SizeOf<Native.DuplicateExtentsData>(), IntPtr.Zero, 0, out _, IntPtr.Zero) ? 0 : LastErrorOr(Win32.ErrorGenFailure);
        }
        finally
        {
            if (added)
            {
                source.DangerousRelease();
            }
        }
    }

    public int SetBasicInformation(SafeFileHandle file, Win32FileTimes times, uint attributes)
    {
        var basic = new Native.FileBasicInfo
        {
            CreationTime = times.CreationTime,
            LastAccessTime = times.LastAccessTime,
            LastWriteTime = times.LastWriteTime,
            ChangeTime = times.ChangeTime,
            FileAttributes = attributes,
        };
        return Native.SetFileBasicInformation(file, Native.FileBasicInfoClass, ref basic, (uint)Marshal.SizeOf<Native.FileBasicInfo>()) ? 0 : LastErrorOr(Win32.ErrorGenFailure);
    }

    public int SetDispositionEx(SafeFileHandle file, uint flags) =>
        Native.SetFileDispositionEx(file, Native.FileDispositionInfoExClass, ref flags, sizeof(uint)) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    public int SetDeleteOnClose(SafeFileHandle file, bool delete)
    {
        byte deleteFile = delete ? (byte)1 : (byte)0;
        return Native.SetFileDisposition(file, Native.FileDispositionInfoClass, ref deleteFile, 1) ? 0 : LastErrorOr(Win32.ErrorGenFailure);
    }

    public void CloseHandle(SafeFileHandle file) => file.Dispose();

    public int CopyFile(string source, string destination) =>
        Native.CopyFile(source, destination, failIfExists: true) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    public int GetExtents(SafeFileHandle file, int maximum, out Win32Extent[] extents)
    {
        // FSCTL_GET_RETRIEVAL_POINTERS, the form documented since Windows XP and for ReFS on its page (the _AND_REFCOUNT
        // form is documented in MS-FSCC 2.3.34 only, and the reference count is never read: ReFS updates it late).
        // RETRIEVAL_POINTERS_BUFFER: ExtentCount (4), padding (4), StartingVcn (8), then { NextVcn (8), Lcn (8) } per
        // extent; STARTING_VCN_INPUT_BUFFER in.
        var buffer = new byte[16 + (16 * Math.Max(1, maximum))];
        long startingVcn = 0;
        bool done = Native.GetRetrievalPointers(file, Win32.FsctlGetRetrievalPointers, ref startingVcn, sizeof(long), buffer, (uint)buffer.Length, out _, IntPtr.Zero);
        int error = done ? 0 : LastErrorOr(Win32.ErrorGenFailure);
        if (error != 0 && error != Win32.ErrorMoreData)
        {
            extents = Array.Empty<Win32Extent>();
            return error;
        }

        int count = (int)Math.Min(BitConverter.ToUInt32(buffer, 0), (uint)maximum);
        extents = new Win32Extent[count];
        for (int i = 0; i < count; i++)
        {
            int at = 16 + (16 * i);
            extents[i] = new Win32Extent(BitConverter.ToInt64(buffer, at), BitConverter.ToInt64(buffer, at + 8), 0);
        }

        return error;
    }

    public int GetOsBuild(out int build)
    {
        build = RunningBuild() ?? 0;
        return build > 0 ? 0 : Win32.ErrorGenFailure;
    }

    public int CreateMutex(string name, out SafeWaitHandle mutex)
    {
        // ERROR_ALREADY_EXISTS comes with a valid handle to the existing mutex: success here.
        mutex = Native.CreateMutex(IntPtr.Zero, initialOwner: false, name);
        return mutex.IsInvalid ? LastErrorOr(Win32.ErrorGenFailure) : 0;
    }

    public int WaitForMutex(SafeWaitHandle mutex, int milliseconds)
    {
        // WAIT_OBJECT_0 (0), WAIT_ABANDONED (0x80) and WAIT_TIMEOUT (258) as they are: the cloner decides what they mean.
        const uint WaitFailed = 0xFFFFFFFF;
        uint waited = Native.WaitForSingleObject(mutex, (uint)milliseconds);
        return waited == WaitFailed ? LastErrorOr(Win32.ErrorGenFailure) : (int)waited;
    }

    public int ReleaseMutex(SafeWaitHandle mutex) => Native.ReleaseMutex(mutex) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    public void CloseMutex(SafeWaitHandle mutex) => mutex.Dispose();

    /// <summary>
    /// FILE_RENAME_INFO: Flags (a DWORD, in a union with the BOOLEAN ReplaceIfExists), RootDirectory (a HANDLE, null
    /// here), FileNameLength in bytes, then the name's UTF-16 characters; the buffer ends with a terminating zero.
    /// </summary>
    public int RenameByHandle(SafeFileHandle file, string newPath, uint flags)
    {
        int rootOffset = IntPtr.Size; // the DWORD union, padded to a pointer's alignment
        int lengthOffset = rootOffset + IntPtr.Size;
        int nameOffset = lengthOffset + sizeof(uint);
        int size = nameOffset + ((newPath.Length + 1) * sizeof(char));
        IntPtr buffer = Marshal.AllocHGlobal(size);
        try
        {
            Marshal.Copy(new byte[size], 0, buffer, size);
            Marshal.WriteInt32(buffer, 0, unchecked((int)flags));
            Marshal.WriteInt32(buffer, lengthOffset, newPath.Length * sizeof(char));
            Marshal.Copy(newPath.ToCharArray(), 0, buffer + nameOffset, newPath.Length);
            return Native.SetFileRenameInformation(file, Native.FileRenameInfoExClass, buffer, (uint)size) ? 0 : LastErrorOr(Win32.ErrorGenFailure);
        }
        finally
        {
            Marshal.FreeHGlobal(buffer);
        }
    }

    public int MoveFileReplacing(string existingPath, string newPath) =>
        Native.MoveFileEx(existingPath, newPath, Win32.MoveFileReplaceExisting) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    public int DeleteFile(string path) => Native.DeleteFile(path) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    public int CreateSymbolicLink(string linkPath, string targetPath, uint flags) =>
        Native.CreateSymbolicLink(linkPath, targetPath, flags) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    public int CreateHardLink(string linkPath, string existingPath) =>
        Native.CreateHardLink(linkPath, existingPath, IntPtr.Zero) ? 0 : LastErrorOr(Win32.ErrorGenFailure);

    /// <summary>
    /// A failed call that left no error code still failed: never report it as success. Nor as
    /// ERROR_INVALID_FUNCTION, which from the clone FSCTL means "this volume cannot clone" and is remembered
    /// for the volume; ERROR_GEN_FAILURE is remembered nowhere.
    /// </summary>
    private static int LastErrorOr(int fallback)
    {
        int error = Marshal.GetLastWin32Error();
        return error != 0 ? error : fallback;
    }

    private static string Terminated(char[] buffer)
    {
        int end = Array.IndexOf(buffer, '\0');
        return new string(buffer, 0, end < 0 ? buffer.Length : end);
    }
}
