using System;
using System.Collections.Concurrent;
using System.ComponentModel;
using System.IO;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Block cloning on ReFS and Dev Drive with FSCTL_DUPLICATE_EXTENTS_TO_FILE. Nothing is enumerated up
/// front (the CopyOnWrite package's volume scan is what failed builds on BitLocker-locked and RAW drives):
/// each volume is asked about itself the first time a file on it is copied, and the answer is cached.
/// Written against the documented Win32 contract; it cannot run on this project's Linux machines, where
/// tests drive the engine through a fake <see cref="ICopyOnWriteFilesystem"/> instead.
/// </summary>
internal sealed class WindowsBlockCloneFilesystem : ICopyOnWriteFilesystem
{
    private const uint FileSupportsBlockRefcounting = 0x08000000;
    private const uint FsctlDuplicateExtentsToFile = 0x00098344;
    private const uint FsctlSetSparse = 0x000900C4;
    private const int ErrorBlockTooManyReferences = 347;

    /// <summary>Under 4 GiB per call, and a multiple of every cluster size.</summary>
    private const long ChunkSize = 1L << 30;

    private readonly ConcurrentDictionary<string, (bool Supported, long ClusterSize)> _volumes = new(StringComparer.OrdinalIgnoreCase);

    public int MaxClonesPerFile => 8175;

    public bool CopyOnWriteLinkSupportedBetweenPaths(string source, string destination)
    {
        string sourceRoot = VolumeRoot(source);
        string destinationRoot = VolumeRoot(destination);
        if (!string.Equals(sourceRoot, destinationRoot, StringComparison.OrdinalIgnoreCase) || sourceRoot.StartsWith(@"\\", StringComparison.Ordinal))
        {
            return false; // different volumes, or UNC / \\?\ paths, which this path does not resolve
        }

        return Volume(sourceRoot).Supported;
    }

    public void CloneFile(string source, string destination)
    {
        long clusterSize = Volume(VolumeRoot(source)).ClusterSize;
        var sourceAttributes = File.GetAttributes(source);
        using var from = new FileStream(source, FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete, bufferSize: 1);
        using var to = new FileStream(destination, FileMode.Create, FileAccess.Write, FileShare.Delete, bufferSize: 1);
        if ((sourceAttributes & FileAttributes.SparseFile) != 0)
        {
            Check(DeviceIoControl(to.SafeFileHandle, FsctlSetSparse, IntPtr.Zero, 0, IntPtr.Zero, 0, out _, IntPtr.Zero), destination);
        }

        long length = from.Length;
        to.SetLength(length); // the end of file must be set before the extents are duplicated
        long rounded = (length + clusterSize - 1) / clusterSize * clusterSize;
        for (long offset = 0; offset < rounded; offset += ChunkSize)
        {
            var data = new DuplicateExtentsData
            {
                FileHandle = from.SafeFileHandle.DangerousGetHandle(),
                SourceFileOffset = offset,
                TargetFileOffset = offset,
                ByteCount = Math.Min(ChunkSize, rounded - offset),
            };
            Check(DeviceIoControl(to.SafeFileHandle, FsctlDuplicateExtentsToFile, ref data, Marshal.SizeOf<DuplicateExtentsData>(), IntPtr.Zero, 0, out _, IntPtr.Zero), destination);
        }
    }

    private (bool Supported, long ClusterSize) Volume(string root) => _volumes.GetOrAdd(root, r =>
    {
        if (!GetVolumeInformation(r, null, 0, out _, out _, out uint flags, null, 0))
        {
            throw new IOException($"Cannot query volume {r}: {new Win32Exception(Marshal.GetLastWin32Error()).Message}");
        }

        if (!GetDiskFreeSpace(r, out uint sectorsPerCluster, out uint bytesPerSector, out _, out _))
        {
            throw new IOException($"Cannot read the cluster size of {r}: {new Win32Exception(Marshal.GetLastWin32Error()).Message}");
        }

        return ((flags & FileSupportsBlockRefcounting) != 0, (long)sectorsPerCluster * bytesPerSector);
    });

    private static string VolumeRoot(string path) => Path.GetPathRoot(Path.GetFullPath(path)) ?? throw new ArgumentException($"No volume root in {path}");

    private static void Check(bool succeeded, string destination)
    {
        if (succeeded)
        {
            return;
        }

        int error = Marshal.GetLastWin32Error();
        string message = $"{new Win32Exception(error).Message} : '{destination}'";
        if (error == ErrorBlockTooManyReferences)
        {
            throw new MaxCloneFileLinksExceededException(message);
        }

        throw new IOException(message, unchecked((int)0x80070000) | error);
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct DuplicateExtentsData
    {
        public IntPtr FileHandle;
        public long SourceFileOffset;
        public long TargetFileOffset;
        public long ByteCount;
    }

    [DllImport("kernel32.dll", EntryPoint = "GetVolumeInformationW", CharSet = CharSet.Unicode, SetLastError = true)]
    private static extern bool GetVolumeInformation(string rootPathName, char[]? volumeNameBuffer, int volumeNameSize, out uint serialNumber, out uint maximumComponentLength, out uint fileSystemFlags, char[]? fileSystemNameBuffer, int fileSystemNameSize);

    [DllImport("kernel32.dll", EntryPoint = "GetDiskFreeSpaceW", CharSet = CharSet.Unicode, SetLastError = true)]
    private static extern bool GetDiskFreeSpace(string rootPathName, out uint sectorsPerCluster, out uint bytesPerSector, out uint numberOfFreeClusters, out uint totalNumberOfClusters);

    [DllImport("kernel32.dll", SetLastError = true)]
    private static extern bool DeviceIoControl(SafeFileHandle device, uint ioControlCode, ref DuplicateExtentsData inBuffer, int inBufferSize, IntPtr outBuffer, int outBufferSize, out int bytesReturned, IntPtr overlapped);

    [DllImport("kernel32.dll", SetLastError = true)]
    private static extern bool DeviceIoControl(SafeFileHandle device, uint ioControlCode, IntPtr inBuffer, int inBufferSize, IntPtr outBuffer, int outBufferSize, out int bytesReturned, IntPtr overlapped);
}
