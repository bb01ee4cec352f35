#if NET
using System.Runtime.InteropServices;
using CloneCopy.Engine;
using CloneCopy.Platform.Portable;
using CloneCopy.Platform.Unix;

namespace CloneCopy.Platform.Linux;

/// <summary>
/// Linux: paths probed with statx (two calls for a symbolic link), files cloned with FICLONE or copied in the
/// kernel by <see cref="LinuxFileTransfer"/>; where the C library cannot be called, .NET's answers and copies.
/// </summary>
internal sealed class LinuxPlatform : UnixPlatform, IFileStateReader
{
    private const uint Wanted = LibC.STATX_TYPE | LibC.STATX_MODE | LibC.STATX_NLINK | LibC.STATX_UID | LibC.STATX_INO;
    private const uint WantedWithSizeAndTime = Wanted | LibC.STATX_SIZE | LibC.STATX_MTIME;

    /// <summary>The Unix times DateTime can hold (years 1 to 9999): beyond them FileInfo decides.</summary>
    private const long FirstSecond = -62_135_596_800;
    private const long LastSecond = 253_402_300_799;

    private readonly bool _useStatx;

    private LinuxPlatform(bool usable, IFileTransfer transfer)
        : base(transfer) => _useStatx = usable;

    public override bool ComparesPathsExactly => true;

    public static LinuxPlatform Create(EngineDiagnostics diagnostics)
    {
        if (LinuxFileTransfer.IsUsable())
        {
            return new LinuxPlatform(true, new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>(), new CloneVerifier<VolumePair>(diagnostics)));
        }

        diagnostics.Report(EngineDiagnosticKind.CloningUnavailable, "process", "the C library's statx/ioctl could not be called");
        return new LinuxPlatform(false, new PlatformFileCopy());
    }

    /// <summary>
    /// One statx (not following a link) instead of FileInfo's lstat and the probe's statx: nothing there, or a
    /// regular file with its size and last-write time as FileInfo reads them.
    /// </summary>
    public bool TryReadFileState(string path, out FileState state)
    {
        state = default;
        if (!_useStatx || path.Length == 0 || path.Contains('\0', System.StringComparison.Ordinal))
        {
            return false;
        }

        if (LibC.Statx(LibC.AT_FDCWD, path, LibC.AT_SYMLINK_NOFOLLOW, WantedWithSizeAndTime, out var entry) != 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            if (errno is LinuxErrors.ENOENT or LinuxErrors.ENOTDIR)
            {
                state = new FileState(new PathStatus(false, false), 0, System.DateTime.FromFileTimeUtc(0).Ticks);
                return true;
            }

            return false;
        }

        long seconds = entry.ModificationTime.Seconds;
        if (!entry.IsRegularFile || seconds > LastSecond || seconds < FirstSecond)
        {
            return false;
        }

        // As .NET's FileStatus: DateTimeOffset.FromUnixTimeSeconds(seconds).AddTicks(nanoseconds / 100).
        long ticks = System.DateTime.UnixEpoch.Ticks + (seconds * System.TimeSpan.TicksPerSecond) + (entry.ModificationTime.Nanoseconds / 100);
        var status = new PathStatus(true, false) { LinkCount = entry.LinkCount, Device = entry.Device, Inode = entry.Inode, IsReadOnly = UnixReadOnly.AsDotNetSeesIt(entry.Mode, entry.Uid) };
        state = new FileState(status, (long)entry.Size, ticks);
        return true;
    }

    public override PathStatus Probe(string fullPath)
    {
        if (_useStatx)
        {
            if (LibC.Statx(LibC.AT_FDCWD, fullPath, LibC.AT_SYMLINK_NOFOLLOW, Wanted, out var entry) == 0)
            {
                if (!entry.IsSymbolicLink)
                {
                    return new PathStatus(true, entry.IsDirectory) { LinkCount = entry.LinkCount, Device = entry.Device, Inode = entry.Inode, IsReadOnly = UnixReadOnly.AsDotNetSeesIt(entry.Mode, entry.Uid) };
                }

                // A link: it exists; it is a directory, and has an identity, through what it leads to.
                bool resolved = LibC.Statx(LibC.AT_FDCWD, fullPath, 0, Wanted, out var target) == 0;
                return new PathStatus(true, resolved && target.IsDirectory)
                {
                    IsLink = true,
                    LinkCount = entry.LinkCount,
                    Device = resolved ? target.Device : 0,
                    Inode = resolved ? target.Inode : 0,
                };
            }

            int errno = Marshal.GetLastPInvokeError();
            if (errno is LinuxErrors.ENOENT or LinuxErrors.ENOTDIR)
            {
                return new PathStatus(false, false);
            }
        }

        return DotNetPathProbe.Get(fullPath);
    }
}
#endif
