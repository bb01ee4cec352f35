#if NET
using System;
using System.Buffers.Binary;
using System.IO;
using System.Runtime.InteropServices;

namespace CloneCopy.Platform.MacOS;

/// <summary>
/// The real <see cref="IDarwinCalls"/>: libc's stat, lstat and clonefile on macOS (and .NET's own open, lock and
/// delete for <see cref="RemoveUnshared"/>). struct stat is read
/// from a buffer at the offsets of the 64-bit-inode layout (st_dev int32 at 0, st_mode uint16 at 4,
/// st_nlink uint16 at 6, st_ino uint64 at 8), which is the only layout on arm64 and the one the
/// "$INODE64" symbols fill on x86-64. Written against Apple's headers; it has not run on this project's
/// machines (tests drive the logic above it through <see cref="IDarwinCalls"/>).
/// </summary>
internal sealed unsafe partial class DarwinLibC : IDarwinCalls
{
    private const string Library = "libc";
    private const int StatBufferSize = 256; // struct stat is 144 bytes; room to spare
    private const uint FileTypeMask = 0xF000;
    private const uint Directory = 0x4000;
    private const uint SymbolicLink = 0xA000;

    private static readonly bool IsArm64 = RuntimeInformation.ProcessArchitecture == Architecture.Arm64;

    public static DarwinLibC Instance { get; } = new();

    private DarwinLibC()
    {
    }

    public int Stat(string path, out DarwinFileStatus status) => Call(path, follow: true, out status);

    public int LStat(string path, out DarwinFileStatus status) => Call(path, follow: false, out status);

    public int CloneFile(string source, string destination, uint flags) =>
        CloneFileCall(source, destination, flags) == 0 ? 0 : Marshal.GetLastPInvokeError();

    /// <summary>Through .NET itself: its FileShare.None is exactly the lock its File.Copy takes (and skips where .NET's switch turns locking off).</summary>
    public int RemoveUnshared(string path)
    {
        try
        {
            using (new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None, bufferSize: 1))
            {
                File.Delete(path);
            }

            return 0;
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            return MacCloneErrors.ENOENT;
        }
        catch (UnauthorizedAccessException)
        {
            return MacCloneErrors.EACCES;
        }
        catch (IOException)
        {
            return MacCloneErrors.EWOULDBLOCK;
        }
    }

    private static int Call(string path, bool follow, out DarwinFileStatus status)
    {
        byte* buffer = stackalloc byte[StatBufferSize];
        int result = (follow, IsArm64) switch
        {
            (true, true) => StatArm64(path, buffer),
            (true, false) => StatX64(path, buffer),
            (false, true) => LStatArm64(path, buffer),
            (false, false) => LStatX64(path, buffer),
        };
        if (result != 0)
        {
            status = default;
            return Marshal.GetLastPInvokeError();
        }

        var bytes = new ReadOnlySpan<byte>(buffer, StatBufferSize);
        uint mode = BinaryPrimitives.ReadUInt16LittleEndian(bytes.Slice(4));
        status = new DarwinFileStatus(
            Device: BinaryPrimitives.ReadUInt32LittleEndian(bytes),
            Inode: BinaryPrimitives.ReadUInt64LittleEndian(bytes.Slice(8)),
            LinkCount: BinaryPrimitives.ReadUInt16LittleEndian(bytes.Slice(6)),
            IsDirectory: (mode & FileTypeMask) == Directory,
            IsSymbolicLink: (mode & FileTypeMask) == SymbolicLink);
        return 0;
    }

    [LibraryImport(Library, EntryPoint = "stat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int StatArm64(string path, byte* buffer);

    [LibraryImport(Library, EntryPoint = "stat$INODE64", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int StatX64(string path, byte* buffer);

    [LibraryImport(Library, EntryPoint = "lstat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int LStatArm64(string path, byte* buffer);

    [LibraryImport(Library, EntryPoint = "lstat$INODE64", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int LStatX64(string path, byte* buffer);

    [LibraryImport(Library, EntryPoint = "clonefile", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int CloneFileCall(string source, string destination, uint flags);
}
#endif
