using System;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// The \\?\ prefix, added to every path CloneCopy hands kernel32, by .NET's own rule (dotnet/runtime
/// PathInternal.EnsureExtendedPrefixIfNeeded, which .NET applies inside each of its Interop wrappers, "This method does
/// not implicitly handle long paths" being the warning on the raw ones): a fully qualified path of MAX_PATH (260)
/// characters or more, or ending with a space or a period, becomes \\?\C:\... (\\?\UNC\server\share\... for a share);
/// a relative path or a device path (\\?\, \\.\, \??\) is left as it is. Without it, a raw Win32 call fails such a
/// path (Naming Files, Paths and Namespaces) unless the machine opted in to long paths, so long paths were never
/// cloned and the guard raised a false CLC005. One job, one decorator, wrapped around every implementation of the seam
/// (the real calls and the simulator alike, so the simulator, which enforces MAX_PATH, sees what Windows would).
/// </summary>
internal sealed class LongPathCalls : IWindowsSystemCalls
{
    private const int MaxShortPath = 260;
    private readonly IWindowsSystemCalls _inner;

    private LongPathCalls(IWindowsSystemCalls inner) => _inner = inner;

    /// <summary>The calls with the prefix added; the same object when they already add it.</summary>
    public static IWindowsSystemCalls Over(IWindowsSystemCalls calls) => calls as LongPathCalls ?? new LongPathCalls(calls);

    /// <summary>The path as .NET would hand it to Windows.</summary>
    public static string Extended(string path)
    {
        bool needed = path.Length >= MaxShortPath || (path.Length > 0 && path[path.Length - 1] is ' ' or '.');
        if (!needed || IsPartiallyQualified(path) || IsDevice(path))
        {
            return path;
        }

        // \\server\share\... becomes \\?\UNC\server\share\... (.NET inserts "?\UNC\" after the two backslashes).
        return path.StartsWith(@"\\", StringComparison.Ordinal) ? path.Insert(2, @"?\UNC\") : @"\\?\" + path;
    }

    private static bool IsSeparator(char c) => c is '\\' or '/';

    /// <summary>Relative to a current folder or drive ("a\b", "\a" on the current drive, "C:a"), as opposed to "C:\a" or "\\server\share".</summary>
    private static bool IsPartiallyQualified(string path)
    {
        if (path.Length < 2)
        {
            return true;
        }

        if (IsSeparator(path[0]))
        {
            return !(path[1] == '?' || IsSeparator(path[1]));
        }

        bool driveLetter = (path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z');
        return !(path.Length >= 3 && driveLetter && path[1] == ':' && IsSeparator(path[2]));
    }

    /// <summary>\\?\, \\.\ or \??\: a device path, which Windows takes as it is.</summary>
    private static bool IsDevice(string path) =>
        path.StartsWith(@"\??\", StringComparison.Ordinal)
        || (path.Length >= 4 && IsSeparator(path[0]) && IsSeparator(path[1]) && (path[2] == '?' || path[2] == '.') && IsSeparator(path[3]));

    public int GetVolumePathName(string path, out string volumePath) => _inner.GetVolumePathName(Extended(path), out volumePath);

    public int GetVolumeNameForVolumeMountPoint(string volumeMountPoint, out string volumeName) => _inner.GetVolumeNameForVolumeMountPoint(volumeMountPoint, out volumeName);

    public int QueryDosDevice(string deviceName, out string target) => _inner.QueryDosDevice(deviceName, out target);

    public int GetVolumeInformation(string rootPath, out uint serialNumber, out uint fileSystemFlags, out string fileSystemName) => _inner.GetVolumeInformation(rootPath, out serialNumber, out fileSystemFlags, out fileSystemName);

    public int GetDiskFreeSpace(string rootPath, out uint sectorsPerCluster, out uint bytesPerSector) => _inner.GetDiskFreeSpace(rootPath, out sectorsPerCluster, out bytesPerSector);

    public int GetLogicalDrives(out uint drives) => _inner.GetLogicalDrives(out drives);

    public uint GetDriveType(string rootPath) => _inner.GetDriveType(rootPath);

    public int GetFileAttributes(string path, out uint attributes) => _inner.GetFileAttributes(Extended(path), out attributes);

    public int CreateFile(string path, uint desiredAccess, uint shareMode, uint creationDisposition, uint flagsAndAttributes, out SafeFileHandle handle) =>
        _inner.CreateFile(Extended(path), desiredAccess, shareMode, creationDisposition, flagsAndAttributes, out handle);

    public int GetFileInformation(SafeFileHandle file, out Win32FileInformation information) => _inner.GetFileInformation(file, out information);

    public int GetFileId(SafeFileHandle file, out Win32FileId id) => _inner.GetFileId(file, out id);

    public int QueryAllInformation(SafeFileHandle file, out Win32FileAllInformation information) => _inner.QueryAllInformation(file, out information);

    public int GetStreamNames(SafeFileHandle file, out string[] names) => _inner.GetStreamNames(file, out names);

    public int GetExtendedAttributeNames(SafeFileHandle file, out string[] names) => _inner.GetExtendedAttributeNames(file, out names);

    public int GetFinalPathName(SafeFileHandle file, out string path) => _inner.GetFinalPathName(file, out path);

    public int SetSparse(SafeFileHandle file, bool sparse) => _inner.SetSparse(file, sparse);

    public int GetIntegrityInformation(SafeFileHandle file, out IntegrityInformation information, out long clusterSize) => _inner.GetIntegrityInformation(file, out information, out clusterSize);

    public int SetIntegrityInformation(SafeFileHandle file, IntegrityInformation information) => _inner.SetIntegrityInformation(file, information);

    public int SetEndOfFile(SafeFileHandle file, long length) => _inner.SetEndOfFile(file, length);

    public int FlushFileBuffers(SafeFileHandle file) => _inner.FlushFileBuffers(file);

    public int DuplicateExtents(SafeFileHandle source, SafeFileHandle destination, long sourceOffset, long destinationOffset, long byteCount) =>
        _inner.DuplicateExtents(source, destination, sourceOffset, destinationOffset, byteCount);

    public int SetBasicInformation(SafeFileHandle file, Win32FileTimes times, uint attributes) => _inner.SetBasicInformation(file, times, attributes);

    public int SetDeleteOnClose(SafeFileHandle file, bool delete) => _inner.SetDeleteOnClose(file, delete);

    public int SetDispositionEx(SafeFileHandle file, uint flags) => _inner.SetDispositionEx(file, flags);

    public void CloseHandle(SafeFileHandle file) => _inner.CloseHandle(file);

    public int CopyFile(string source, string destination) => _inner.CopyFile(Extended(source), Extended(destination));

    public int GetExtents(SafeFileHandle file, int maximum, out Win32Extent[] extents) => _inner.GetExtents(file, maximum, out extents);

    public int RenameByHandle(SafeFileHandle file, string newPath, uint flags) => _inner.RenameByHandle(file, Extended(newPath), flags);

    public int MoveFileReplacing(string existingPath, string newPath) => _inner.MoveFileReplacing(Extended(existingPath), Extended(newPath));

    public int DeleteFile(string path) => _inner.DeleteFile(Extended(path));

    /// <summary>The link's own path only: its target is stored as given.</summary>
    public int CreateSymbolicLink(string linkPath, string targetPath, uint flags) => _inner.CreateSymbolicLink(Extended(linkPath), targetPath, flags);

    public int CreateHardLink(string linkPath, string existingPath) => _inner.CreateHardLink(Extended(linkPath), Extended(existingPath));

    public int GetOsBuild(out int build) => _inner.GetOsBuild(out build);

    /// <summary>A kernel object's name, not a path: passed as it is.</summary>
    public int CreateMutex(string name, out SafeWaitHandle mutex) => _inner.CreateMutex(name, out mutex);

    public int WaitForMutex(SafeWaitHandle mutex, int milliseconds) => _inner.WaitForMutex(mutex, milliseconds);

    public int ReleaseMutex(SafeWaitHandle mutex) => _inner.ReleaseMutex(mutex);

    public void CloseMutex(SafeWaitHandle mutex) => _inner.CloseMutex(mutex);
}
