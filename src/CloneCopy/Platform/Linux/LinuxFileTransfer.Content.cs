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
            long copied = LinuxBufferedCopy.CopyToEndOfFile(_calls, source, destination, destinationPath, cancellationToken);
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
            long rewritten = LinuxBufferedCopy.Copy(_calls, source, destination, destinationPath, 0, length, cancellationToken);
            return new TransferResult(TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered, rewritten);
        }

        // The kernel copy goes as far as it can; read and write carry on from there, as .NET's File.Copy and GNU cp
        // do when copy_file_range stops early (a zero return, or an answer that means "not this way").
        long kernelCopied = _kernelCopyCache.IsKnownImpossible(volumes, out _) ? 0 : KernelCopy(source, destination, destinationPath, length, volumes, cancellationToken);
        if (kernelCopied == length)
        {
            return new TransferResult(TransferMethod.KernelCopied, reason, length);
        }

        long end = LinuxBufferedCopy.Copy(_calls, source, destination, destinationPath, kernelCopied, length, cancellationToken);
        return new TransferResult(TransferMethod.Copied, reason, end);
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

    /// <summary>
    /// The read-back of a clone (<see cref="CloneVerifier{TVolume}"/>, the first per pair of filesystems per build, or every one
    /// with CloneCopyVerifyClones), with pread on the descriptors already open. A mismatch: no more clones on the pair.
    /// </summary>
    private bool ReadBackMatches(int source, int destination, string destinationPath, long length, VolumePair volumes)
    {
        bool every = (Volatile.Read(ref _build) as BuildVerdicts)?.VerifyClones == true;
        if (!_verifier.NeedsReadBack(volumes, every))
        {
            return true;
        }

        if (_verifier.AfterCloneForTests is { } makeWrong)
        {
            using var handle = new Microsoft.Win32.SafeHandles.SafeFileHandle((IntPtr)destination, ownsHandle: false);
            makeWrong(handle, destinationPath);
        }

        if (_verifier.Confirms(volumes, new LinuxDescriptorPair(source, destination, destinationPath), length, destinationPath, every))
        {
            return true;
        }

        // copy_file_range shares extents on XFS and btrfs too: the pair gets plain copies only for the rest of the build.
        _cache.RememberImpossible(volumes, NotClonedReason.CloneReadBackDiffered);
        _kernelCopyCache.RememberImpossible(volumes, NotClonedReason.CloneReadBackDiffered);
        return false;
    }

    /// <summary>Returns <see cref="NotClonedReason.None"/> on success, else why the clone did not happen.</summary>
    private NotClonedReason TryClone(int source, int destination, string destinationPath, VolumePair volumes)
    {
        if (_cache.IsKnownImpossible(volumes, out NotClonedReason known))
        {
            return known;
        }

        _cache.CountAttempt();
        if (_calls.Clone(destination, source) == 0)
        {
            return NotClonedReason.None;
        }

        int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
        CloneAttempt failure = LinuxErrors.ClassifyCloneError(errno);
        if (failure.Kind == CloneAttemptKind.ImpossibleHere)
        {
            _cache.RememberImpossible(volumes, failure.Reason);
        }

        return failure.Reason;
    }

    /// <summary>
    /// Copies in the kernel from the start; returns how far it got: <paramref name="length"/>, or less where
    /// copy_file_range stopped being a way to copy this file. A zero return before the known size is such a stop, as
    /// .NET's File.Copy and GNU cp read it (procfs and sysfs on kernels 5.3-5.18, some FUSE and network
    /// filesystems), not the end of the source: if the source did shrink, the read that follows finds its end. So is
    /// any errno before the first byte moved (as in File.Copy, which MSBuild's Copy calls: the fault lane saw it copy
    /// with read and write after copy_file_range's EIO and ENOSPC), and any errno half-way: File.Copy moves a file in
    /// one call, so a later call is CloneCopy's own, and read and write meet a real I/O error or full disk themselves.
    /// An interrupted call (EINTR) is made again, as File.Copy makes it again.
    /// </summary>
    private long KernelCopy(int source, int destination, string destinationPath, long length, VolumePair volumes, CancellationToken cancellationToken)
    {
        long sourceOffset = 0;
        long destinationOffset = 0;
        while (sourceOffset < length)
        {
            cancellationToken.ThrowIfCancellationRequested();
            nint copied = _calls.CopyFileRange(source, &sourceOffset, destination, &destinationOffset, (nuint)Math.Min(KernelCopyChunk, length - sourceOffset));
            if (copied > 0)
            {
                continue; // a short transfer too: the kernel advanced both offsets by what it moved
            }

            if (copied == 0)
            {
                return sourceOffset;
            }

            int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
            if (errno == LinuxErrors.EINTR)
            {
                continue;
            }

            if (sourceOffset == 0 && errno is LinuxErrors.EXDEV or LinuxErrors.EOPNOTSUPP or LinuxErrors.ENOSYS)
            {
                // Only a refusal before any byte moved speaks for the pair of filesystems.
                _kernelCopyCache.RememberImpossible(volumes, NotClonedReason.FilesystemCannotClone);
            }

            return sourceOffset;
        }

        return sourceOffset;
    }
}
#endif
