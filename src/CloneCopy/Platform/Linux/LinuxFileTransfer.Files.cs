#if NET
using System;
using System.Runtime.InteropServices;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Unix;

namespace CloneCopy.Platform.Linux;

/// <summary>
/// Opening and closing the two files of one transfer as .NET's File.Copy opens them, and removing a destination an
/// error interrupted; what happens to the bytes in between is in LinuxFileTransfer.Content.cs.
/// </summary>
internal sealed unsafe partial class LinuxFileTransfer
{
    /// <summary>
    /// The source opened as the copy opens it, but with O_NOFOLLOW: a symbolic link (ELOOP), like every other
    /// failure, is left to the probe, which tells a link from what it leads to. One fstat then says all the probe
    /// would have said of a path that is not a link.
    /// </summary>
    public OpenedSource? TryOpenSource(string path)
    {
        int fd;
        do
        {
            fd = LibC.Open(path, LibC.O_RDONLY | LibC.O_CLOEXEC | LibC.O_NOFOLLOW, 0);
        }
        while (fd < 0 && Marshal.GetLastPInvokeError() == LinuxErrors.EINTR);

        if (fd < 0)
        {
            return null;
        }

        if (LibC.Statx(fd, string.Empty, LibC.AT_EMPTY_PATH, LibC.STATX_BASIC_STATS, out LibC.StatxBuffer stat) != 0)
        {
            LibC.Close(fd);
            return null;
        }

        var status = new PathStatus(true, stat.IsDirectory) { LinkCount = stat.LinkCount, Device = stat.Device, Inode = stat.Inode, IsReadOnly = UnixReadOnly.AsDotNetSeesIt(stat.Mode, stat.Uid) };
        return new LinuxOpenedSource(path, status, fd, stat);
    }

    /// <summary>
    /// The destination made with O_EXCL and the mode a new file gets from .NET (0666 less the umask; the source's
    /// own mode is set after the copy where it differs, as for any copy), then the source opened.
    /// </summary>
    public OpenedSource? TryCreateDestinationThenOpenSource(string destinationPath, string sourcePath)
    {
        int destination;
        do
        {
            destination = LibC.Open(destinationPath, LibC.O_RDWR | LibC.O_CREAT | LibC.O_EXCL | LibC.O_CLOEXEC, NewFileMode);
        }
        while (destination < 0 && Marshal.GetLastPInvokeError() == LinuxErrors.EINTR);

        if (destination < 0)
        {
            return null;
        }

        if (TryOpenSource(sourcePath) is LinuxOpenedSource source && !source.Status.IsDirectory)
        {
            source.AdoptCreatedDestination(destination, destinationPath);
            return source;
        }

        LibC.Close(destination);
        LibC.Unlink(destinationPath);
        return null;
    }

    /// <summary>rw-rw-rw-, before the umask: what .NET asks for a new file.</summary>
    private const uint NewFileMode = 0x1B6;

    /// <summary>
    /// Opens both files as .NET's File.Copy opens them (the source shared-locked, the destination read-write
    /// and exclusively locked before it is truncated, so a file another process holds is neither truncated
    /// nor written), then clones or copies, then sets mode and times. With <paramref name="cloneOnly"/>, a
    /// clone or nothing: false, with the new file removed, when the pair does not clone.
    /// </summary>
    private bool TryTransferOwnWay(string sourcePath, string destinationPath, ref bool destinationTouched, bool cloneOnly, CancellationToken cancellationToken, out TransferResult result)
    {
        int source = OpenOrThrow(sourcePath, LibC.O_RDONLY | LibC.O_CLOEXEC, 0);
        try
        {
            StatOrThrow(source, sourcePath, out LibC.StatxBuffer sourceStat);
            return TransferFrom(source, in sourceStat, sourcePath, destinationPath, destinationAbsent: false, createdDestination: -1, ref destinationTouched, cloneOnly, cancellationToken, out result);
        }
        finally
        {
            LibC.Close(source);
        }
    }

    /// <summary>The rest of <see cref="TryTransferOwnWay"/>, from a source already open and looked at.</summary>
    /// <param name="createdDestination">The destination, already made as a new file (its descriptor, now this method's to close); -1 to open it here.</param>
    private bool TransferFrom(int source, in LibC.StatxBuffer sourceStat, string sourcePath, string destinationPath, bool destinationAbsent, int createdDestination, ref bool destinationTouched, bool cloneOnly, CancellationToken cancellationToken, out TransferResult result)
    {
        int destination = createdDestination;
        if (sourceStat.IsDirectory)
        {
            throw new UnauthorizedAccessException($"Access to the path '{sourcePath}' is denied.");
        }

        try
        {
            DotNetFileLocks.Lock(source, exclusive: false, sourcePath, LinuxErrors.EAGAIN);
        }
        catch when (destination >= 0)
        {
            // Made for this copy and never written: it goes, as if it had never been made.
            LibC.Close(destination);
            LibC.Unlink(destinationPath);
            throw;
        }

        if (destination < 0)
        {
            destination = OpenDestination(destinationPath, sourceStat.Mode & LibC.PermissionBits, destinationAbsent);
        }

        try
        {
            DotNetFileLocks.Lock(destination, exclusive: true, destinationPath, LinuxErrors.EAGAIN);
            if (LibC.Statx(destination, string.Empty, LibC.AT_EMPTY_PATH, LibC.STATX_BASIC_STATS, out LibC.StatxBuffer destinationStat) != 0)
            {
                // A look of CloneCopy's own: File.Copy opens, locks and truncates a destination without ever looking at
                // it, so whatever this call answered, MSBuild's Copy would not have met it. Unavailable here, not failed.
                throw new OwnCallFailed();
            }

            destinationTouched = true;
            if (destinationStat.Size != 0 && LibC.FTruncate(destination, 0) != 0)
            {
                throw LinuxErrors.ToException(Marshal.GetLastPInvokeError(), destinationPath);
            }

            if (cloneOnly)
            {
                if (!TryCloneOnly(source, in sourceStat, destination, in destinationStat, destinationPath, out result))
                {
                    LibC.Close(destination);
                    destination = -1;
                    LibC.Unlink(destinationPath);
                    return false;
                }
            }
            else
            {
                result = TransferContent(source, in sourceStat, destination, in destinationStat, destinationPath, cancellationToken);
            }

            // A source that ended before the size its statx gave (read() found its end first) was copied as far as it
            // went, as File.Copy copies it; its times belong to a file of another size, so the copy keeps its own.
            bool whole = result.Bytes >= (long)sourceStat.Size || !sourceStat.IsRegularFile;
            LinuxMetadata.CopyFromSource(destination, destinationPath, in sourceStat, in destinationStat, stampTimes: whole);
            return true;
        }
        catch
        {
            // Half a file must not survive an error or a cancellation: the next build would have to
            // notice it (its timestamp is fresh, so it would); removing it makes that certain.
            LibC.Close(destination);
            destination = -1;
            if (destinationTouched)
            {
                LibC.Unlink(destinationPath);
            }

            throw;
        }
        finally
        {
            if (destination >= 0)
            {
                LibC.Close(destination);
            }
        }
    }

    /// <summary>
    /// The destination, read-write, created with the source's mode. Where the rules saw nothing there, it is
    /// created as a new file (O_EXCL); should something have appeared there since, it is opened as before.
    /// </summary>
    private static int OpenDestination(string path, uint mode, bool absent)
    {
        if (absent)
        {
            int fd;
            do
            {
                fd = LibC.Open(path, LibC.O_RDWR | LibC.O_CREAT | LibC.O_EXCL | LibC.O_CLOEXEC, mode);
            }
            while (fd < 0 && Marshal.GetLastPInvokeError() == LinuxErrors.EINTR);

            if (fd >= 0 || Marshal.GetLastPInvokeError() != LinuxErrors.EEXIST)
            {
                return fd >= 0 ? fd : throw OpenFailure(Marshal.GetLastPInvokeError(), path);
            }
        }

        return OpenOrThrow(path, LibC.O_RDWR | LibC.O_CREAT | LibC.O_CLOEXEC, mode);
    }

    private static int OpenOrThrow(string path, int flags, uint mode)
    {
        int fd;
        do
        {
            fd = LibC.Open(path, flags, mode);
        }
        while (fd < 0 && Marshal.GetLastPInvokeError() == LinuxErrors.EINTR);

        if (fd < 0)
        {
            throw OpenFailure(Marshal.GetLastPInvokeError(), path);
        }

        return fd;
    }

    /// <summary>A failed open as .NET reports it: for ENOENT it blames the folder where the folder is missing too.</summary>
    private static Exception OpenFailure(int errno, string path) =>
        LinuxErrors.ToException(errno, path, inMissingFolder: errno == LinuxErrors.ENOENT && !System.IO.Directory.Exists(System.IO.Path.GetDirectoryName(path)));

    /// <summary>
    /// A call of CloneCopy's own, one File.Copy never makes (the destination's statx after it was opened, the read-back of
    /// a clone), failed: the pair is left to File.Copy, the way MSBuild's Copy goes, which cannot meet that failure. Not an
    /// <see cref="System.IO.IOException"/>, so it is not taken for this attempt failing.
    /// </summary>
    internal sealed class OwnCallFailed : Exception
    {
    }

    private static void StatOrThrow(int fd, string path, out LibC.StatxBuffer buffer)
    {
        if (LibC.Statx(fd, string.Empty, LibC.AT_EMPTY_PATH, LibC.STATX_BASIC_STATS, out buffer) != 0)
        {
            throw LinuxErrors.ToException(Marshal.GetLastPInvokeError(), path);
        }
    }
}
#endif
