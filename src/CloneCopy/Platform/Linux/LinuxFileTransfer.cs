#if NET
using System;
using System.Buffers;
using System.IO;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Unix;

namespace CloneCopy.Platform.Linux;

/// <summary>
/// The Linux transfer chain: FICLONE, then copy_file_range, then a buffered copy; then the source's mode,
/// access time and last-write time, as .NET's File.Copy leaves them. One open and one statx per file,
/// on each side, and nothing else when the clone succeeds.
/// </summary>
internal sealed unsafe class LinuxFileTransfer : IFileTransfer, ICloneOnlyTransfer, IBuildScopedVerdicts, IOpenedSourceTransfer
{
    private const int BufferSize = 1024 * 1024;

    /// <summary>copy_file_range moves at most about 2 GiB per call; 64 MiB at a time keeps cancellation prompt.</summary>
    private const long KernelCopyChunk = 64L << 20;

    private readonly CloneCapabilityCache<VolumePair> _cache;
    private readonly CloneCapabilityCache<VolumePair> _kernelCopyCache = new();

    private readonly object _buildLock = new();
    private object? _build;

    private readonly CloneVerifier _verifier;
    private readonly System.Collections.Concurrent.ConcurrentDictionary<VolumePair, string> _volumeNames = new();

    /// <param name="verifier">Reads clones back (<see cref="CloneVerifier"/>); one of its own, whose warnings nobody hears, by default.</param>
    public LinuxFileTransfer(CloneCapabilityCache<VolumePair> cache, CloneVerifier? verifier = null)
    {
        _cache = cache;
        _verifier = verifier ?? new CloneVerifier(new EngineDiagnostics());
    }

    /// <summary>A new build forgets the verdicts per pair of devices: a filesystem may have been remounted since.</summary>
    public void UseVerdictsOf(object build)
    {
        if (ReferenceEquals(Volatile.Read(ref _build), build))
        {
            return; // the same build: the common case, without a lock
        }

        // Published only after the clear, so no task of the new build reads a verdict of the last one.
        lock (_buildLock)
        {
            if (!ReferenceEquals(_build, build))
            {
                _cache.Clear();
                _kernelCopyCache.Clear();
                _verifier.Forget();
                Volatile.Write(ref _build, build);
            }
        }
    }

    /// <summary>True when libc answers: a musl or an exotic runtime falls back to File.Copy instead.</summary>
    public static bool IsUsable()
    {
        try
        {
            return LibC.Statx(LibC.AT_FDCWD, "/", 0, LibC.STATX_BASIC_STATS, out _) == 0;
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
        {
            return false;
        }
    }

    public TransferResult Transfer(string sourcePath, string destinationPath, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        bool destinationTouched = false;
        try
        {
            TryTransferOwnWay(sourcePath, destinationPath, ref destinationTouched, cloneOnly: false, cancellationToken, out TransferResult result);
            return result;
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            return DotNetCopy.AfterFailure(sourcePath, destinationPath, destinationTouched);
        }
    }

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
        while (fd < 0 && System.Runtime.InteropServices.Marshal.GetLastPInvokeError() == LinuxErrors.EINTR);

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
        while (destination < 0 && System.Runtime.InteropServices.Marshal.GetLastPInvokeError() == LinuxErrors.EINTR);

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

    public TransferResult Transfer(OpenedSource source, string destinationPath, bool destinationAbsent, CancellationToken cancellationToken)
    {
        var opened = (LinuxOpenedSource)source;
        cancellationToken.ThrowIfCancellationRequested();
        bool destinationTouched = false;
        try
        {
            TransferFrom(opened.Descriptor, in opened.Stat, opened.Path, destinationPath, destinationAbsent, opened.TakeCreatedDestination(destinationPath), ref destinationTouched, cloneOnly: false, cancellationToken, out TransferResult result);
            return result;
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            return DotNetCopy.AfterFailure(opened.Path, destinationPath, destinationTouched);
        }
    }

    public bool TryCloneOnly(string sourcePath, string destinationPath, CancellationToken cancellationToken, out TransferResult result)
    {
        cancellationToken.ThrowIfCancellationRequested();
        result = default;
        if (KnownNotToClone(sourcePath, destinationPath))
        {
            return false; // decided without creating anything
        }

        bool destinationTouched = false;
        try
        {
            return TryTransferOwnWay(sourcePath, destinationPath, ref destinationTouched, cloneOnly: true, cancellationToken, out result);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            // Any failure, even no space: the link MSBuild would make instead needs none, so it decides.
            result = default;
            return false;
        }
    }

    /// <summary>
    /// Clone-only requests on a pair of filesystems already known not to clone (ext4, two mounts), or for a
    /// source that is empty or not a regular file (a named pipe must not be opened twice: the link is made), are answered from the capability cache with two path lookups, before a destination is
    /// created only to be removed again: with links asked for on such a volume, that is every file.
    /// </summary>
    private bool KnownNotToClone(string sourcePath, string destinationPath)
    {
        string? directory = System.IO.Path.GetDirectoryName(destinationPath);
        if (directory is null
            || LibC.Statx(LibC.AT_FDCWD, sourcePath, 0, LibC.STATX_BASIC_STATS, out LibC.StatxBuffer source) != 0
            || LibC.Statx(LibC.AT_FDCWD, directory, 0, LibC.STATX_TYPE, out LibC.StatxBuffer folder) != 0)
        {
            return false; // let the attempt itself say what is wrong
        }

        return source.Size == 0 || !source.IsRegularFile || _cache.IsKnownImpossible(new VolumePair(source.Device, folder.Device), out _);
    }

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
            StatOrThrow(destination, destinationPath, out LibC.StatxBuffer destinationStat);
            destinationTouched = true;
            if (destinationStat.Size != 0 && LibC.FTruncate(destination, 0) != 0)
            {
                throw LinuxErrors.ToException(System.Runtime.InteropServices.Marshal.GetLastPInvokeError(), destinationPath);
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

            CopyMetadata(destination, destinationPath, in sourceStat, in destinationStat);
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
            while (fd < 0 && System.Runtime.InteropServices.Marshal.GetLastPInvokeError() == LinuxErrors.EINTR);

            if (fd >= 0 || System.Runtime.InteropServices.Marshal.GetLastPInvokeError() != LinuxErrors.EEXIST)
            {
                return fd >= 0 ? fd : throw LinuxErrors.ToException(System.Runtime.InteropServices.Marshal.GetLastPInvokeError(), path);
            }
        }

        return OpenOrThrow(path, LibC.O_RDWR | LibC.O_CREAT | LibC.O_CLOEXEC, mode);
    }

    /// <summary>A source opened by <see cref="TryOpenSource"/>.</summary>
    private sealed class LinuxOpenedSource : OpenedSource
    {
        public readonly LibC.StatxBuffer Stat;
        private int _descriptor;

        public LinuxOpenedSource(string path, PathStatus status, int descriptor, LibC.StatxBuffer stat)
            : base(path, status)
        {
            _descriptor = descriptor;
            Stat = stat;
        }

        private int _createdDestination = -1;
        private string? _createdDestinationPath;

        public int Descriptor => _descriptor;

        /// <summary>A destination made for this source before the rules ran; closed and removed if no transfer takes it.</summary>
        public void AdoptCreatedDestination(int descriptor, string path)
        {
            _createdDestination = descriptor;
            _createdDestinationPath = path;
        }

        /// <summary>The destination made for this copy (now the caller's), or -1 when none was, or it was made for another path.</summary>
        public int TakeCreatedDestination(string path)
        {
            if (_createdDestination < 0 || !string.Equals(path, _createdDestinationPath, StringComparison.Ordinal))
            {
                return -1;
            }

            int descriptor = _createdDestination;
            _createdDestination = -1;
            return descriptor;
        }

        protected override void Close()
        {
            int descriptor = Interlocked.Exchange(ref _descriptor, -1);
            if (descriptor >= 0)
            {
                LibC.Close(descriptor);
            }

            int created = Interlocked.Exchange(ref _createdDestination, -1);
            if (created >= 0)
            {
                LibC.Close(created);
                LibC.Unlink(_createdDestinationPath!);
            }
        }
    }

    private TransferResult TransferContent(int source, in LibC.StatxBuffer sourceStat, int destination, in LibC.StatxBuffer destinationStat, string destinationPath, CancellationToken cancellationToken)
    {
        long length = (long)sourceStat.Size;
        if (length == 0 || !sourceStat.IsRegularFile)
        {
            // A size of 0 is not proof of emptiness: a /proc file says 0 and holds text, a named pipe or a
            // device says 0 and gives whatever is written to it. File.Copy reads such a source to its end, so
            // this does too. For a truly empty regular file that is one read returning 0; nothing to clone.
            long copied = CopyToEndOfFile(source, destination, destinationPath, cancellationToken);
            return new TransferResult(TransferMethod.Copied, copied == 0 ? NotClonedReason.EmptyFile : NotClonedReason.SizeNotKnownInAdvance, copied);
        }

        var volumes = new VolumePair(sourceStat.Device, destinationStat.Device);

        NotClonedReason reason = TryClone(source, destination, destinationPath, volumes);
        if (reason == NotClonedReason.None)
        {
            if (ReadBackMatches(source, destination, destinationPath, length, volumes))
            {
                return TransferResult.Cloned(length);
            }

            // Written again by a plain copy (copy_file_range may clone again on XFS and btrfs), over the same length.
            reason = NotClonedReason.CloneReadBackDiffered;
            BufferedCopy(source, destination, destinationPath, length, cancellationToken);
            return new TransferResult(TransferMethod.Copied, reason, length);
        }

        if (!_kernelCopyCache.IsKnownImpossible(volumes, out _) && TryKernelCopy(source, destination, destinationPath, length, volumes, cancellationToken))
        {
            return new TransferResult(TransferMethod.KernelCopied, reason, length);
        }

        BufferedCopy(source, destination, destinationPath, length, cancellationToken);
        return new TransferResult(TransferMethod.Copied, reason, length);
    }

    /// <summary>
    /// The read-back of a clone (<see cref="CloneVerifier"/>, the first per pair of filesystems per build, or every one
    /// with CloneCopyVerifyClones), with pread on the descriptors already open. A mismatch: no more clones on the pair.
    /// </summary>
    private bool ReadBackMatches(int source, int destination, string destinationPath, long length, VolumePair volumes)
    {
        bool every = (Volatile.Read(ref _build) as BuildVerdicts)?.VerifyClones == true;
        string key = _volumeNames.GetOrAdd(volumes, static pair => $"the filesystem of device {pair.DestinationDevice >> 8 & 0xfff | (pair.DestinationDevice >> 32 & ~0xfffUL)}:{pair.DestinationDevice & 0xff | (pair.DestinationDevice >> 12 & ~0xffUL)}");
        if (!_verifier.NeedsReadBack(key, every))
        {
            return true;
        }

        using var from = new Microsoft.Win32.SafeHandles.SafeFileHandle((IntPtr)source, ownsHandle: false);
        using var to = new Microsoft.Win32.SafeHandles.SafeFileHandle((IntPtr)destination, ownsHandle: false);
        if (_verifier.Confirms(key, from, to, length, destinationPath, every))
        {
            return true;
        }

        // copy_file_range shares extents on XFS and btrfs too: the pair gets plain copies only for the rest of the build.
        _cache.RememberImpossible(volumes, NotClonedReason.CloneReadBackDiffered);
        _kernelCopyCache.RememberImpossible(volumes, NotClonedReason.CloneReadBackDiffered);
        return false;
    }

    /// <summary>A clone or nothing: false for an empty source or a refusal (cached as the copy path caches it).</summary>
    private bool TryCloneOnly(int source, in LibC.StatxBuffer sourceStat, int destination, in LibC.StatxBuffer destinationStat, string destinationPath, out TransferResult result)
    {
        long length = (long)sourceStat.Size;
        result = TransferResult.Cloned(length);
        var volumes = new VolumePair(sourceStat.Device, destinationStat.Device);
        return length != 0 && sourceStat.IsRegularFile && TryClone(source, destination, destinationPath, volumes) == NotClonedReason.None
            && ReadBackMatches(source, destination, destinationPath, length, volumes);
    }

    /// <summary>Returns <see cref="NotClonedReason.None"/> on success, else why the clone did not happen.</summary>
    private NotClonedReason TryClone(int source, int destination, string destinationPath, VolumePair volumes)
    {
        if (_cache.IsKnownImpossible(volumes, out NotClonedReason known))
        {
            return known;
        }

        _cache.CountAttempt();
        if (LibC.Ioctl(destination, LibC.FICLONE, source) == 0)
        {
            return NotClonedReason.None;
        }

        int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
        CloneAttempt failure = LinuxErrors.ClassifyCloneError(errno) ?? throw LinuxErrors.ToException(errno, destinationPath);
        if (failure.Kind == CloneAttemptKind.ImpossibleHere)
        {
            _cache.RememberImpossible(volumes, failure.Reason);
        }

        return failure.Reason;
    }

    /// <summary>Copies in the kernel; false when copy_file_range cannot serve this pair (nothing written yet).</summary>
    private bool TryKernelCopy(int source, int destination, string destinationPath, long length, VolumePair volumes, CancellationToken cancellationToken)
    {
        long sourceOffset = 0;
        long destinationOffset = 0;
        while (sourceOffset < length)
        {
            cancellationToken.ThrowIfCancellationRequested();
            nint copied = LibC.CopyFileRange(source, &sourceOffset, destination, &destinationOffset, (nuint)Math.Min(KernelCopyChunk, length - sourceOffset), 0);
            if (copied > 0)
            {
                continue;
            }

            if (copied == 0)
            {
                break; // the source shrank under us: keep what the kernel gave, as a read loop would
            }

            int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
            if (errno == LinuxErrors.EINTR)
            {
                continue;
            }

            if (sourceOffset == 0 && LinuxErrors.KernelCopyUnavailable(errno))
            {
                if (errno is LinuxErrors.EXDEV or LinuxErrors.EOPNOTSUPP or LinuxErrors.ENOSYS)
                {
                    _kernelCopyCache.RememberImpossible(volumes, NotClonedReason.FilesystemCannotClone);
                }

                return false;
            }

            throw LinuxErrors.ToException(errno, destinationPath);
        }

        return true;
    }

    private static void BufferedCopy(int source, int destination, string destinationPath, long length, CancellationToken cancellationToken)
    {
        // Reserve the blocks first: fewer extents, and ENOSPC before we write rather than half-way.
        if (LibC.FAllocate(destination, 0, 0, length) != 0)
        {
            int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
            if (errno is LinuxErrors.ENOSPC or LinuxErrors.EDQUOT or LinuxErrors.EIO)
            {
                throw LinuxErrors.ToException(errno, destinationPath);
            }
        }

        long written = ReadWriteLoop(source, destination, destinationPath, (int)Math.Min(BufferSize, Math.Max(length, 4096)), cancellationToken);
        if (written < length)
        {
            // The source shrank while we read it; drop the preallocated tail so the size is what we wrote.
            LibC.FTruncate(destination, written);
        }
    }

    /// <summary>
    /// A source whose size says nothing (0, or not a regular file): read until read() says end of file,
    /// with no preallocation, since the size is not known. Returns the bytes written.
    /// </summary>
    private static long CopyToEndOfFile(int source, int destination, string destinationPath, CancellationToken cancellationToken) =>
        ReadWriteLoop(source, destination, destinationPath, UnknownLengthBufferSize, cancellationToken);

    /// <summary>64 KiB: a pipe's default capacity, and small enough for the usual empty file's one read.</summary>
    private const int UnknownLengthBufferSize = 64 * 1024;

    /// <summary>read() and write() until read() returns 0 (end of file); returns the bytes written.</summary>
    private static long ReadWriteLoop(int source, int destination, string destinationPath, int bufferSize, CancellationToken cancellationToken)
    {
        byte[] buffer = ArrayPool<byte>.Shared.Rent(bufferSize);
        long written = 0;
        try
        {
            fixed (byte* start = buffer)
            {
                while (true)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    nint read = LibC.Read(source, start, (nuint)buffer.Length);
                    if (read < 0)
                    {
                        int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
                        if (errno == LinuxErrors.EINTR)
                        {
                            continue;
                        }

                        throw LinuxErrors.ToException(errno, destinationPath);
                    }

                    if (read == 0)
                    {
                        break;
                    }

                    WriteAll(destination, destinationPath, start, read);
                    written += read;
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        return written;
    }

    private static void WriteAll(int destination, string destinationPath, byte* data, nint count)
    {
        while (count > 0)
        {
            nint done = LibC.Write(destination, data, (nuint)count);
            if (done < 0)
            {
                int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
                if (errno == LinuxErrors.EINTR)
                {
                    continue;
                }

                throw LinuxErrors.ToException(errno, destinationPath);
            }

            data += done;
            count -= done;
        }
    }

    /// <summary>
    /// Mode (rwx for user, group and other: File.Copy does not carry setuid, setgid or sticky over), then
    /// access and last-write times: last, so only a complete file carries the source's timestamp.
    /// The chmod is skipped when the file was created with the right mode already (the usual case: the
    /// umask did not strip anything), which saves a metadata transaction per file on XFS and btrfs.
    /// </summary>
    private static void CopyMetadata(int destination, string destinationPath, in LibC.StatxBuffer sourceStat, in LibC.StatxBuffer destinationStat)
    {
        uint mode = sourceStat.Mode & LibC.AccessPermissionBits;
        if ((destinationStat.Mode & LibC.PermissionBits) != mode && LibC.FChmod(destination, mode) != 0)
        {
            // File.Copy ignores a failed chmod too (a filesystem without modes, such as vfat).
        }

        LibC.Timespec* times = stackalloc LibC.Timespec[2];
        times[0] = new LibC.Timespec { Seconds = sourceStat.AccessTime.Seconds, Nanoseconds = sourceStat.AccessTime.Nanoseconds };
        times[1] = new LibC.Timespec { Seconds = sourceStat.ModificationTime.Seconds, Nanoseconds = sourceStat.ModificationTime.Nanoseconds };
        if (LibC.FUtimens(destination, times) != 0)
        {
            throw LinuxErrors.ToException(System.Runtime.InteropServices.Marshal.GetLastPInvokeError(), destinationPath);
        }
    }

    private static int OpenOrThrow(string path, int flags, uint mode)
    {
        int fd;
        do
        {
            fd = LibC.Open(path, flags, mode);
        }
        while (fd < 0 && System.Runtime.InteropServices.Marshal.GetLastPInvokeError() == LinuxErrors.EINTR);

        if (fd < 0)
        {
            throw LinuxErrors.ToException(System.Runtime.InteropServices.Marshal.GetLastPInvokeError(), path);
        }

        return fd;
    }

    private static void StatOrThrow(int fd, string path, out LibC.StatxBuffer buffer)
    {
        if (LibC.Statx(fd, string.Empty, LibC.AT_EMPTY_PATH, LibC.STATX_BASIC_STATS, out buffer) != 0)
        {
            throw LinuxErrors.ToException(System.Runtime.InteropServices.Marshal.GetLastPInvokeError(), path);
        }
    }
}
#endif
