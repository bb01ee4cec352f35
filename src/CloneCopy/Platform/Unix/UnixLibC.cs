#if NET
using System.Runtime.InteropServices;

namespace CloneCopy.Platform.Unix;

/// <summary>
/// The C library calls Linux and macOS share (same names, same numbers on both). Declarations only; the
/// Linux-only calls are in Linux/LibC, the macOS-only ones in MacOS/DarwinLibC.
/// </summary>
internal static partial class UnixLibC
{
    private const string Library = "libc";

    public const int LOCK_SH = 1;
    public const int LOCK_EX = 2;
    public const int LOCK_NB = 4;

    [LibraryImport(Library, EntryPoint = "geteuid")]
    public static partial uint GetEUid();

    /// <summary>access(2) with W_OK: may this process write the file a path leads to (root may, whatever its mode)?</summary>
    [LibraryImport(Library, EntryPoint = "access", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Access(string path, int mode);

    public const int W_OK = 2;

    [LibraryImport(Library, EntryPoint = "flock", SetLastError = true)]
    public static partial int FLock(int fd, int operation);

    [LibraryImport(Library, EntryPoint = "link", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Link(string existingPath, string newPath);

    /// <summary>rename(2): replaces an existing destination atomically (POSIX), on Linux and macOS alike.</summary>
    [LibraryImport(Library, EntryPoint = "rename", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Rename(string oldPath, string newPath);

    [LibraryImport(Library, EntryPoint = "symlink", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int Symlink(string target, string linkPath);
}
#endif
