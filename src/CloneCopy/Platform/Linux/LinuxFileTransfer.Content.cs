#if NET
using System;
using System.Threading;
using CloneCopy.Engine;

namespace CloneCopy.Platform.Linux;

/// <summary>The bytes of one file: FICLONE, else copy_file_range, else the buffered copy (<see cref="LinuxBufferedCopy"/>).</summary>
internal sealed unsafe partial class LinuxFileTransfer
{
    /// <summary>copy_file_range moves at most about 2 GiB per call; 64 MiB at a time keeps cancellation prompt.</summary>
    private const long KernelCopyChunk = 64L << 20;

    private TransferResult TransferContent(int source, in LibC.StatxBuffer sourceStat, int destination, in LibC.StatxBuffer destinationStat, string destinationPath, CancellationToken cancellationToken)
    {
        long length = (long)sourceStat.Size;
        if (length == 0 || !sourceStat.IsRegularFile)
        {
            // A size of 0 is not proof of emptiness: a /proc file says 0 and holds text, a named pipe or a
            // device says 0 and gives whatever is written to it. File.Copy reads such a source to its end, so
            // this does too. For a truly empty regular file that is one read returning 0; nothing to clone.
            long copied = LinuxBufferedCopy.CopyToEndOfFile(source, destination, destinationPath, cancellationToken);
            return new TransferResult(TransferMethod.Copied, copied == 0 ? NotClonedReason.EmptyFile : NotClonedReason.SizeNotKnownInAdvance, copied);
        }

        var volumes = new VolumePair(sourceStat.Device, destinationStat.Device);

        NotClonedReason reason = TryClone(source, destination, destinationPath, volumes);
        if (reason == NotClonedReason.None)
        {
            return TransferResult.Cloned(length);
        }

        if (!_kernelCopyCache.IsKnownImpossible(volumes, out _) && TryKernelCopy(source, destination, destinationPath, length, volumes, cancellationToken))
        {
            return new TransferResult(TransferMethod.KernelCopied, reason, length);
        }

        LinuxBufferedCopy.Copy(source, destination, destinationPath, length, cancellationToken);
        return new TransferResult(TransferMethod.Copied, reason, length);
    }

    /// <summary>A clone or nothing: false for an empty source or a refusal (cached as the copy path caches it).</summary>
    private bool TryCloneOnly(int source, in LibC.StatxBuffer sourceStat, int destination, in LibC.StatxBuffer destinationStat, string destinationPath, out TransferResult result)
    {
        long length = (long)sourceStat.Size;
        result = TransferResult.Cloned(length);
        return length != 0 && sourceStat.IsRegularFile && TryClone(source, destination, destinationPath, new VolumePair(sourceStat.Device, destinationStat.Device)) == NotClonedReason.None;
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
}
#endif
