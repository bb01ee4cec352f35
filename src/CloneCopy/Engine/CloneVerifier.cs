using System;
using System.Buffers;
using System.IO;
using System.Threading;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Engine;

/// <summary>
/// Reads a clone back and compares it with its source before a volume is trusted to clone: the first clone
/// per volume (or filesystem pair) per build, and with CloneCopyVerifyClones every clone. A clone that does not match
/// would be wrong bytes shipped silently, the one failure a fallback cannot catch; on a platform where no clone of
/// CloneCopy's has ever run (Windows), the first real run then proves itself.
/// <para>
/// Budget: the first and the last <see cref="EdgeBytes"/> of the file (the whole file when it is no larger than twice
/// that), once per volume per build: at most 2 MiB read from each side, two or four reads each, no open on Linux (the
/// transfer's own descriptors are read with pread). Every clone is read whole only when CloneCopyVerifyClones asks.
/// Until one read-back has matched on a volume, every clone there is read back (threads that clone meanwhile are
/// checked too), so no clone is trusted unread. A mismatch: one warning per volume (CLC008, through
/// <see cref="EngineDiagnostics"/>), and the caller writes the file again by a plain copy and clones no more there.
/// </para>
/// <para>
/// A volume is the key its platform's transfer already holds (a pair of device numbers on Linux, a volume name
/// elsewhere); its <see cref="object.ToString"/> names it in the warning, made only when one is said. The volumes
/// read back are kept in <see cref="PerVolume{TVolume, TValue}"/>, as the capability verdicts are (a concurrent
/// dictionary here once cost the first Copy in a node milliseconds: FirstCopyInANodeTests).
/// </para>
/// </summary>
internal sealed class CloneVerifier<TVolume>
    where TVolume : IEquatable<TVolume>
{
    /// <summary>Bytes compared at each end of a file on the once-per-volume check.</summary>
    public const int EdgeBytes = 1 << 20;

    /// <summary>Up to this size a read-back allocates its two buffers rather than borrowing them.</summary>
    private const int SmallFile = 64 << 10;

    private readonly EngineDiagnostics _diagnostics;
    private readonly PerVolume<TVolume, bool> _verified = new();

    public CloneVerifier(EngineDiagnostics diagnostics) => _diagnostics = diagnostics;

    /// <summary>
    /// Tests only: runs right after a clone succeeded and before it is read back, given the destination (a handle open
    /// for writing, and its path), so a test can make the clone wrong on purpose (no filesystem clones wrongly on
    /// request; the handle, because the transfer holds the file's lock).
    /// </summary>
    public Action<SafeFileHandle, string>? AfterCloneForTests { get; set; }

    /// <summary>Read-backs made (tests and the budget check count them).</summary>
    public int ReadBacks => _readBacks;

    private int _readBacks;

    /// <summary>A new build: every volume is read back again.</summary>
    public void Forget() => _verified.Clear();

    /// <summary>Whether a clone on <paramref name="volume"/> is to be read back now (no I/O).</summary>
    public bool NeedsReadBack(TVolume volume, bool every) => every || !IsVerified(volume) || AfterCloneForTests is not null;

    /// <summary>
    /// True when the clone read through <paramref name="files"/> holds its source's bytes (or needs no read-back); false,
    /// with the warning reported once per volume, when it does not. The caller runs <see cref="AfterCloneForTests"/>.
    /// </summary>
    /// <typeparam name="TFiles">How the platform reads the two files: a struct, so the read-back allocates nothing and
    /// a fresh node compiles nothing for it (Linux: pread on its descriptors; elsewhere: positional reads on handles).</typeparam>
    /// <param name="sourceChanged">Asked only when the clone differs: true when the source itself was written since the
    /// clone was made (by another process: a cloner that reads the source again by path cannot stop that), which says
    /// nothing of the volume, so no warning is reported.</param>
    public bool Confirms<TFiles>(TVolume volume, TFiles files, long length, string destinationPath, bool every, Func<bool>? sourceChanged = null)
        where TFiles : struct, IClonePairReader
    {
        if (!every && IsVerified(volume))
        {
            return true;
        }

        Interlocked.Increment(ref _readBacks);
        bool same = every || length <= 2L * EdgeBytes
            ? SameRange(files, 0, length)
            : SameRange(files, 0, EdgeBytes) && SameRange(files, length - EdgeBytes, EdgeBytes);

        // The clone must also end where its source ends: a longer clone would pass every range above.
        if (same && EndsAt(files, length))
        {
            _verified.Set(volume, true);
            return true;
        }

        if (sourceChanged?.Invoke() != true)
        {
            _diagnostics.Report(EngineDiagnosticKind.CloneReadBackDiffered, volume.ToString() ?? string.Empty, destinationPath);
        }

        return false;
    }

    /// <summary>As <see cref="Confirms{TFiles}"/>, opening both files by path (a cloner that holds no handles of its own: macOS, and test cloners).</summary>
    public bool Confirms(TVolume volume, string source, string destination, long length, bool every, Func<bool>? sourceChanged = null)
    {
        if (!NeedsReadBack(volume, every))
        {
            return true;
        }

        // FileStream, not File.OpenHandle: the task also builds for netstandard2.0 (MSBuild.exe on .NET Framework).
        using var from = new FileStream(source, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1);
        using var to = new FileStream(destination, FileMode.Open, AfterCloneForTests is null ? FileAccess.Read : FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete, 1);
        AfterCloneForTests?.Invoke(to.SafeFileHandle, destination);
        return Confirms(volume, new HandlePair(from.SafeFileHandle, to.SafeFileHandle), length, destination, every, sourceChanged);
    }

    /// <summary>
    /// As <see cref="Confirms{TFiles}"/>, on the two handles the clone was made with (Windows: the source, denying
    /// writers, and the new clone, before its metadata is set), so no one can change either file between the clone and
    /// its read-back. Runs <see cref="AfterCloneForTests"/> on <paramref name="destination"/> first.
    /// </summary>
    public bool Confirms(TVolume volume, SafeFileHandle source, SafeFileHandle destination, long length, string destinationPath, bool every)
    {
        if (!NeedsReadBack(volume, every))
        {
            return true;
        }

        AfterCloneForTests?.Invoke(destination, destinationPath);
        return Confirms(volume, new HandlePair(source, destination), length, destinationPath, every);
    }

    private bool IsVerified(TVolume volume) => _verified.TryGet(volume, out _);

    /// <summary>True when the clone has nothing past <paramref name="length"/> (one read of one byte there).</summary>
    private static bool EndsAt<TFiles>(TFiles files, long length)
        where TFiles : struct, IClonePairReader
    {
        var beyond = new byte[1];
        return files.Read(destination: true, beyond, 1, length) == 0;
    }

    private static bool SameRange<TFiles>(TFiles files, long offset, long count)
        where TFiles : struct, IClonePairReader
    {
        int size = (int)Math.Min(count, EdgeBytes);

        // A small file (most clones a build reads back) gets buffers of its own: cheaper on a node's first read-back
        // than the shared pool's first rent. A large one borrows 1 MiB twice.
        bool pooled = size > SmallFile;
        byte[] expected = pooled ? ArrayPool<byte>.Shared.Rent(size) : new byte[Math.Max(size, 1)];
        byte[] actual = pooled ? ArrayPool<byte>.Shared.Rent(size) : new byte[Math.Max(size, 1)];
        try
        {
            for (long at = offset, end = offset + count; at < end;)
            {
                int want = (int)Math.Min(size, end - at);
                int read = files.Read(destination: false, expected, want, at);
                if (read != files.Read(destination: true, actual, want, at) || !new ReadOnlySpan<byte>(expected, 0, read).SequenceEqual(new ReadOnlySpan<byte>(actual, 0, read)))
                {
                    return false;
                }

                if (read < want)
                {
                    return true; // both ended early alike (the source shrank meanwhile): nothing more to compare
                }

                at += read;
            }

            return true;
        }
        finally
        {
            if (pooled)
            {
                ArrayPool<byte>.Shared.Return(expected);
                ArrayPool<byte>.Shared.Return(actual);
            }
        }
    }

    /// <summary>Two open handles, read at an offset without moving anything (the Windows and macOS chain).</summary>
    private readonly struct HandlePair : IClonePairReader
    {
        private readonly SafeFileHandle _source;
        private readonly SafeFileHandle _destination;

        public HandlePair(SafeFileHandle source, SafeFileHandle destination)
        {
            _source = source;
            _destination = destination;
        }

        public int Read(bool destination, byte[] buffer, int count, long offset)
        {
            SafeFileHandle file = destination ? _destination : _source;
#if NET
            int total = 0;
            while (total < count)
            {
                int read = RandomAccess.Read(file, buffer.AsSpan(total, count - total), offset + total);
                if (read == 0)
                {
                    break;
                }

                total += read;
            }

            return total;
#else
            // .NET Framework has no positional read: a FileStream over the same handle (not owning it), positioned first.
            using var stream = new FileStream(new SafeFileHandle(file.DangerousGetHandle(), ownsHandle: false), FileAccess.Read, 1);
            stream.Position = offset;
            int total = 0;
            while (total < count)
            {
                int read = stream.Read(buffer, total, count - total);
                if (read == 0)
                {
                    break;
                }

                total += read;
            }

            return total;
#endif
        }
    }
}

/// <summary>How a platform reads the two files of a clone for <see cref="CloneVerifier{TVolume}"/>.</summary>
internal interface IClonePairReader
{
    /// <summary>
    /// Reads up to <paramref name="count"/> bytes of the source (or the clone) at <paramref name="offset"/> into
    /// <paramref name="buffer"/>; fewer only at the end of the file. An error is thrown as .NET's File.Copy throws it.
    /// </summary>
    int Read(bool destination, byte[] buffer, int count, long offset);
}
