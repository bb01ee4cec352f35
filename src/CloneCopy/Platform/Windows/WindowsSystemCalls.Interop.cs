using System;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <content>
/// The kernel32 and ntdll functions <see cref="WindowsSystemCalls"/> calls, and the structures they take:
/// declarations only, private to the one class that calls them. DllImport rather than LibraryImport: the same
/// declarations serve the netstandard2.0 build.
/// </content>
internal sealed partial class WindowsSystemCalls
{
    private static class Native
    {
        private const string Kernel32 = "kernel32.dll";

        public const int FileBasicInfoClass = 0;
        public const int FileDispositionInfoClass = 4;
        public const int FileDispositionInfoExClass = 21;
        public const int FileRenameInfoExClass = 22;
        public const int FileEndOfFileInfoClass = 6;
        public const int FileIdInfoClass = 18;
        public const int FileStreamInfoClass = 7;
        public const int FileAllInformationClass = 18; // FILE_INFORMATION_CLASS
        public const int StatusBufferOverflow = unchecked((int)0x80000005);
        public const int StatusNoEasOnFile = unchecked((int)0xC0000052);
        public const uint FileNameNormalized = 0x0;

        [DllImport(Kernel32, EntryPoint = "GetVolumePathNameW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool GetVolumePathName(string fileName, [Out] char[] volumePathName, uint bufferLength);

        [DllImport(Kernel32, EntryPoint = "GetVolumeNameForVolumeMountPointW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool GetVolumeNameForVolumeMountPoint(string volumeMountPoint, [Out] char[] volumeName, uint bufferLength);

        [DllImport(Kernel32, EntryPoint = "QueryDosDeviceW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern uint QueryDosDevice(string deviceName, [Out] char[] targetPath, uint max);

        [DllImport(Kernel32, EntryPoint = "GetVolumeInformationW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool GetVolumeInformation(string rootPathName, [Out] char[]? volumeNameBuffer, uint volumeNameSize, out uint volumeSerialNumber, out uint maximumComponentLength, out uint fileSystemFlags, [Out] char[] fileSystemNameBuffer, uint fileSystemNameSize);

        [DllImport(Kernel32, EntryPoint = "GetDiskFreeSpaceW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool GetDiskFreeSpace(string rootPathName, out uint sectorsPerCluster, out uint bytesPerSector, out uint numberOfFreeClusters, out uint totalNumberOfClusters);

        [DllImport(Kernel32, EntryPoint = "CreateFileW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern SafeFileHandle CreateFile(string fileName, uint desiredAccess, uint shareMode, IntPtr securityAttributes, uint creationDisposition, uint flagsAndAttributes, IntPtr templateFile);

        [DllImport(Kernel32, SetLastError = true)]
        [return: MarshalAs(UnmanagedType.Bool)]
        public static extern bool FlushFileBuffers(SafeFileHandle file);

        [DllImport(Kernel32, SetLastError = true)]
        public static extern bool GetFileInformationByHandle(SafeFileHandle file, out ByHandleFileInformation information);

        [DllImport(Kernel32, SetLastError = true)]
        public static extern bool GetFileInformationByHandleEx(SafeFileHandle file, int fileInformationClass, out FileIdInfo information, uint bufferSize);

        /// <summary>The FILE_STREAM_INFO form: a buffer of variable-length entries.</summary>
        [DllImport(Kernel32, SetLastError = true, EntryPoint = "GetFileInformationByHandleEx")]
        public static extern bool GetFileStreamInformation(SafeFileHandle file, int fileInformationClass, byte[] buffer, uint bufferSize);

        /// <summary>NtQueryInformationFile into a buffer (FileAllInformation).</summary>
        [DllImport("ntdll.dll")]
        public static extern int NtQueryInformationFile(SafeFileHandle file, out IoStatusBlock ioStatus, byte[] buffer, uint length, int fileInformationClass);

        [DllImport("ntdll.dll")]
        public static extern int NtQueryEaFile(SafeFileHandle file, out IoStatusBlock ioStatus, byte[] buffer, uint length, [MarshalAs(UnmanagedType.U1)] bool returnSingleEntry, IntPtr eaList, uint eaListLength, IntPtr eaIndex, [MarshalAs(UnmanagedType.U1)] bool restartScan);

        [DllImport("ntdll.dll")]
        public static extern int RtlNtStatusToDosError(int status);

        [DllImport(Kernel32, SetLastError = true)]
        public static extern uint GetLogicalDrives();

        [DllImport(Kernel32, EntryPoint = "GetDriveTypeW", CharSet = CharSet.Unicode)]
        public static extern uint GetDriveType(string rootPathName);

        [DllImport(Kernel32, EntryPoint = "GetFileAttributesW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern uint GetFileAttributes(string fileName);

        [StructLayout(LayoutKind.Sequential)]
        public struct IoStatusBlock
        {
            public IntPtr Status;
            public UIntPtr Information;
        }

        [DllImport(Kernel32, EntryPoint = "GetFinalPathNameByHandleW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern uint GetFinalPathNameByHandle(SafeFileHandle file, [Out] char[] filePath, uint bufferLength, uint flags);

        [DllImport(Kernel32, SetLastError = true)]
        public static extern bool SetFileInformationByHandle(SafeFileHandle file, int fileInformationClass, ref long endOfFile, uint bufferSize);

        /// <summary>The FILE_BASIC_INFO form.</summary>
        [DllImport(Kernel32, SetLastError = true, EntryPoint = "SetFileInformationByHandle")]
        public static extern bool SetFileBasicInformation(SafeFileHandle file, int fileInformationClass, ref FileBasicInfo basic, uint bufferSize);

        /// <summary>The FILE_DISPOSITION_INFO_EX form: one DWORD, Flags.</summary>
        [DllImport(Kernel32, SetLastError = true, EntryPoint = "SetFileInformationByHandle")]
        public static extern bool SetFileDispositionEx(SafeFileHandle file, int fileInformationClass, ref uint flags, uint bufferSize);

        /// <summary>The FILE_DISPOSITION_INFO form: one BOOLEAN, DeleteFile.</summary>
        [DllImport(Kernel32, SetLastError = true, EntryPoint = "SetFileInformationByHandle")]
        public static extern bool SetFileDisposition(SafeFileHandle file, int fileInformationClass, ref byte deleteFile, uint bufferSize);

        [DllImport(Kernel32, SetLastError = true)]
        public static extern bool DeviceIoControl(SafeFileHandle device, uint ioControlCode, ref byte inBuffer, uint inBufferSize, IntPtr outBuffer, uint outBufferSize, out uint bytesReturned, IntPtr overlapped);

        [DllImport(Kernel32, SetLastError = true)]
        public static extern bool DeviceIoControl(SafeFileHandle device, uint ioControlCode, IntPtr inBuffer, uint inBufferSize, out GetIntegrityInformationBuffer outBuffer, uint outBufferSize, out uint bytesReturned, IntPtr overlapped);

        [DllImport(Kernel32, SetLastError = true)]
        public static extern bool DeviceIoControl(SafeFileHandle device, uint ioControlCode, ref SetIntegrityInformationBuffer inBuffer, uint inBufferSize, IntPtr outBuffer, uint outBufferSize, out uint bytesReturned, IntPtr overlapped);

        [DllImport(Kernel32, SetLastError = true)]
        public static extern bool DeviceIoControl(SafeFileHandle device, uint ioControlCode, ref DuplicateExtentsData inBuffer, uint inBufferSize, IntPtr outBuffer, uint outBufferSize, out uint bytesReturned, IntPtr overlapped);

        [DllImport(Kernel32, EntryPoint = "CopyFileW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool CopyFile(string existingFileName, string newFileName, bool failIfExists);

        /// <summary>FSCTL_GET_RETRIEVAL_POINTERS: STARTING_VCN_INPUT_BUFFER in, RETRIEVAL_POINTERS_BUFFER out (raw bytes).</summary>
        [DllImport(Kernel32, SetLastError = true, EntryPoint = "DeviceIoControl")]
        public static extern bool GetRetrievalPointers(SafeFileHandle device, uint ioControlCode, ref long startingVcn, uint inBufferSize, byte[] outBuffer, uint outBufferSize, out uint bytesReturned, IntPtr overlapped);

        /// <summary>The FILE_RENAME_INFO form, in a buffer laid out by the caller (its name follows the fixed part).</summary>
        [DllImport(Kernel32, SetLastError = true, EntryPoint = "SetFileInformationByHandle")]
        public static extern bool SetFileRenameInformation(SafeFileHandle file, int fileInformationClass, IntPtr renameInfo, uint bufferSize);

        [DllImport(Kernel32, EntryPoint = "MoveFileExW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool MoveFileEx(string existingFileName, string newFileName, uint flags);

        [DllImport(Kernel32, EntryPoint = "DeleteFileW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool DeleteFile(string fileName);

        [DllImport(Kernel32, EntryPoint = "CreateSymbolicLinkW", CharSet = CharSet.Unicode, SetLastError = true)]
        [return: MarshalAs(UnmanagedType.I1)]
        public static extern bool CreateSymbolicLink(string symlinkFileName, string targetFileName, uint flags);

        [DllImport(Kernel32, EntryPoint = "CreateHardLinkW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool CreateHardLink(string fileName, string existingFileName, IntPtr securityAttributes);

        [DllImport(Kernel32, EntryPoint = "CreateMutexW", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern SafeWaitHandle CreateMutex(IntPtr mutexAttributes, [MarshalAs(UnmanagedType.Bool)] bool initialOwner, string name);

        [DllImport(Kernel32, SetLastError = true)]
        public static extern uint WaitForSingleObject(SafeWaitHandle handle, uint milliseconds);

        [DllImport(Kernel32, SetLastError = true)]
        [return: MarshalAs(UnmanagedType.Bool)]
        public static extern bool ReleaseMutex(SafeWaitHandle mutex);

        /// <summary>Unlike GetVersionEx, not subject to the application manifest: the true build number.</summary>
        [DllImport("ntdll.dll")]
        public static extern int RtlGetVersion(ref OsVersionInfo versionInformation);

        /// <summary>BY_HANDLE_FILE_INFORMATION (FILETIMEs are two DWORDs, hence 4-byte packing).</summary>
        [StructLayout(LayoutKind.Sequential, Pack = 4)]
        public struct ByHandleFileInformation
        {
            public uint FileAttributes;
            public long CreationTime;
            public long LastAccessTime;
            public long LastWriteTime;
            public uint VolumeSerialNumber;
            public uint FileSizeHigh;
            public uint FileSizeLow;
            public uint NumberOfLinks;
            public uint FileIndexHigh;
            public uint FileIndexLow;
        }

        /// <summary>FILE_BASIC_INFO (40 bytes: the DWORD of attributes is padded to eight).</summary>
        [StructLayout(LayoutKind.Sequential)]
        public struct FileBasicInfo
        {
            public long CreationTime;
            public long LastAccessTime;
            public long LastWriteTime;
            public long ChangeTime;
            public uint FileAttributes;
        }

        /// <summary>FILE_ID_INFO.</summary>
        [StructLayout(LayoutKind.Sequential)]
        public struct FileIdInfo
        {
            public ulong VolumeSerialNumber;
            public ulong FileIdLow;
            public ulong FileIdHigh;
        }

        /// <summary>FSCTL_GET_INTEGRITY_INFORMATION_BUFFER.</summary>
        [StructLayout(LayoutKind.Sequential)]
        public struct GetIntegrityInformationBuffer
        {
            public ushort ChecksumAlgorithm;
            public ushort Reserved;
            public uint Flags;
            public uint ChecksumChunkSizeInBytes;
            public uint ClusterSizeInBytes;
        }

        /// <summary>FSCTL_SET_INTEGRITY_INFORMATION_BUFFER.</summary>
        [StructLayout(LayoutKind.Sequential)]
        public struct SetIntegrityInformationBuffer
        {
            public ushort ChecksumAlgorithm;
            public ushort Reserved;
            public uint Flags;
        }

        /// <summary>DUPLICATE_EXTENTS_DATA (64-bit layout: the handle is pointer-sized).</summary>
        [StructLayout(LayoutKind.Sequential)]
        public struct DuplicateExtentsData
        {
            public IntPtr FileHandle;
            public long SourceFileOffset;
            public long TargetFileOffset;
            public long ByteCount;
        }

        /// <summary>RTL_OSVERSIONINFOW.</summary>
        [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)]
        public struct OsVersionInfo
        {
            public int OsVersionInfoSize;
            public int MajorVersion;
            public int MinorVersion;
            public int BuildNumber;
            public int PlatformId;
            [MarshalAs(UnmanagedType.ByValTStr, SizeConst = 128)]
            public string CsdVersion;
        }
    }
}
