#if NET
using System.Runtime.InteropServices;

namespace CloneCopy.Platform.Linux;

/// <summary>
/// The Linux system calls CloneCopy makes itself. Declarations only: what to do with their results
/// lives in <see cref="LinuxFileTransfer"/> (its files: opening, content, metadata, <see cref="LinuxBufferedCopy"/>) and <see cref="LinuxErrors"/>.
/// </summary>
internal static unsafe partial class LibC
{
    private const string Library = "libc";

    // open(2) flags (the generic values, shared by x86-64 and arm64).
    public const int O_RDONLY = 0x0;
    public const int O_WRONLY = 0x1;
    public const int O_RDWR = 0x2;
    public const int O_CREAT = 0x40;
    public const int O_TRUNC = 0x200;
    public const int O_CLOEXEC = 0x80000;
    public const int O_EXCL = 0x80;
    public const int O_NOFOLLOW = 0x20000;

    public const int AT_FDCWD = -100;
    public const int AT_SYMLINK_NOFOLLOW = 0x100;
    public const int AT_EMPTY_PATH = 0x1000;
    public const uint STATX_TYPE = 0x1;
    public const uint STATX_MODE = 0x2;
    public const uint STATX_NLINK = 0x4;
    public const uint STATX_UID = 0x8;
    public const uint STATX_INO = 0x100;
    public const uint STATX_SIZE = 0x200;
    public const uint STATX_MTIME = 0x40;
    public const uint STATX_BASIC_STATS = 0x7ff;

    /// <summary>_IOW(0x94, 9, int): clone a whole file. Same encoding on x86-64 and arm64.</summary>
    public const ulong FICLONE = 0x40049409;

    public const uint S_IFMT = 0xF000;
    public const uint S_IFDIR = 0x4000;
    public const uint S_IFREG = 0x8000;
    public const uint S_IFLNK = 0xA000;
    public const uint PermissionBits = 0xFFF; // rwx for user/group/other plus setuid, setgid, sticky
    public const uint AccessPermissionBits = 0x1FF; // rwx for user/group/other

    [LibraryImport(Library, EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Open(string path, int flags, uint mode);

    [LibraryImport(Library, EntryPoint = "close", SetLastError = true)]
    public static partial int Close(int fd);

    [LibraryImport(Library, EntryPoint = "ioctl", SetLastError = true)]
    public static partial int Ioctl(int fd, ulong request, nint argument);

    [LibraryImport(Library, EntryPoint = "copy_file_range", SetLastError = true)]
    public static partial nint CopyFileRange(int fdIn, long* offIn, int fdOut, long* offOut, nuint length, uint flags);

    [LibraryImport(Library, EntryPoint = "read", SetLastError = true)]
    public static partial nint Read(int fd, byte* buffer, nuint count);

    /// <summary>pread(2): read at an offset without moving the descriptor's position (the clone read-back).</summary>
    [LibraryImport(Library, EntryPoint = "pread", SetLastError = true)]
    public static partial nint PRead(int fd, byte* buffer, nuint count, long offset);

    [LibraryImport(Library, EntryPoint = "write", SetLastError = true)]
    public static partial nint Write(int fd, byte* buffer, nuint count);

    [LibraryImport(Library, EntryPoint = "fallocate", SetLastError = true)]
    public static partial int FAllocate(int fd, int mode, long offset, long length);

    public const int SEEK_SET = 0;

    [LibraryImport(Library, EntryPoint = "lseek", SetLastError = true)]
    public static partial long LSeek(int fd, long offset, int whence);

    [LibraryImport(Library, EntryPoint = "ftruncate", SetLastError = true)]
    public static partial int FTruncate(int fd, long length);

    [LibraryImport(Library, EntryPoint = "statx", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Statx(int dirFd, string path, int flags, uint mask, out StatxBuffer buffer);

    [LibraryImport(Library, EntryPoint = "futimens", SetLastError = true)]
    public static partial int FUtimens(int fd, Timespec* times);

    [LibraryImport(Library, EntryPoint = "fchmod", SetLastError = true)]
    public static partial int FChmod(int fd, uint mode);

    [LibraryImport(Library, EntryPoint = "unlink", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Unlink(string path);

    /// <summary>struct timespec on 64-bit Linux.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Timespec
    {
        public long Seconds;
        public long Nanoseconds;
    }

    /// <summary>struct statx_timestamp.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct StatxTimestamp
    {
        public long Seconds;
        public uint Nanoseconds;
        private readonly int _reserved;
    }

    /// <summary>struct statx: its layout is the same on every architecture, which is why we use it over stat.</summary>
    [StructLayout(LayoutKind.Explicit, Size = 256)]
    public struct StatxBuffer
    {
        [FieldOffset(0)] public uint Mask;
        [FieldOffset(16)] public uint LinkCount;
        [FieldOffset(20)] public uint Uid;
        [FieldOffset(28)] public ushort Mode;
        [FieldOffset(32)] public ulong Inode;
        [FieldOffset(40)] public ulong Size;
        [FieldOffset(64)] public StatxTimestamp AccessTime;
        [FieldOffset(112)] public StatxTimestamp ModificationTime;
        [FieldOffset(136)] public uint DeviceMajor;
        [FieldOffset(140)] public uint DeviceMinor;

        public readonly ulong Device => ((ulong)DeviceMajor << 32) | DeviceMinor;

        public readonly bool IsDirectory => (Mode & S_IFMT) == S_IFDIR;

        public readonly bool IsRegularFile => (Mode & S_IFMT) == S_IFREG;

        public readonly bool IsSymbolicLink => (Mode & S_IFMT) == S_IFLNK;
    }
}
#endif
