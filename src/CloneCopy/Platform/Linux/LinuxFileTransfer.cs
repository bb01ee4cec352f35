#if NET
using System;
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
internal sealed unsafe partial class LinuxFileTransfer : IFileTransfer, ICloneOnlyTransfer, IBuildScopedVerdicts, IOpenedSourceTransfer
{
    private readonly CloneCapabilityCache<VolumePair> _cache;
    private readonly CloneCapabilityCache<VolumePair> _kernelCopyCache = new();

    private readonly object _buildLock = new();
    private object? _build;

    /// <summary>The calls that move bytes: the C library's, or a test's that fails some of them on purpose.</summary>
    private readonly ILinuxByteCalls _calls;

    /// <summary>Reads clones back (<see cref="CloneVerifier{TVolume}"/>): the first per pair of filesystems per build, or every one.</summary>
    private readonly CloneVerifier<VolumePair> _verifier;

    /// <param name="cache">The clone verdicts per pair of filesystems.</param>
    /// <param name="verifier">Reads clones back; one of its own, whose warnings nobody hears, by default.</param>
    /// <param name="calls">The calls that move bytes; the C library's by default.</param>
    public LinuxFileTransfer(CloneCapabilityCache<VolumePair> cache, CloneVerifier<VolumePair>? verifier = null, ILinuxByteCalls? calls = null)
    {
        _cache = cache;
        _verifier = verifier ?? new CloneVerifier<VolumePair>(new EngineDiagnostics());
        _calls = calls ?? LibCByteCalls.Instance;
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
        catch (Exception e) when (!IsAnAttemptThatFailed(e))
        {
            return DotNetCopy.AfterFailure(sourcePath, destinationPath, destinationTouched);
        }
    }

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
        catch (Exception e) when (!IsAnAttemptThatFailed(e))
        {
            return DotNetCopy.AfterFailure(opened.Path, destinationPath, destinationTouched);
        }
    }

    /// <summary>
    /// True for an error a system call answered (thrown as the exception .NET's File.Copy throws for it, with the
    /// half-made destination already removed): this attempt failed, as File.Copy's would have at the same step, so it
    /// goes to MSBuild's retries, their MSB3026 warnings and the MSB3027/MSB3021 errors, and is not handed to
    /// File.Copy for one more attempt that Retries does not count and the log does not show. "Unavailable here"
    /// answers never get this far: the chain falls back inside (docs/how-it-works.md, "Which errors fall back").
    /// Anything else (a C library without a call, a fault of ours) is not the disk speaking: File.Copy copies instead.
    /// </summary>
    private static bool IsAnAttemptThatFailed(Exception e) => e is OperationCanceledException or IOException or UnauthorizedAccessException;

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
}
#endif
