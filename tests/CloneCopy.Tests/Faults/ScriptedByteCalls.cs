using System;
using System.Runtime.InteropServices;
using System.Threading;
using CloneCopy.Platform.Linux;

namespace CloneCopy.Tests.Faults;

/// <summary>
/// The C library's byte-moving calls with answers a kernel can give and a test machine will not give on demand: a call
/// that fails with an errno, or returns 0, from its Nth time on (once, or every time after); transfers made shorter than
/// asked. Everything else is the real call, so the bytes that do move are real.
/// </summary>
internal sealed unsafe class ScriptedByteCalls : ILinuxByteCalls
{
    private const int SeekCurrent = 1;

    public Fault? CloneFault { get; init; }

    public Fault? CopyFileRangeFault { get; init; }

    public Fault? ReadFault { get; init; }

    public Fault? WriteFault { get; init; }

    /// <summary>
    /// copy_file_range fails with this errno whenever it is asked to start at or past the offset, and so does read: a bad
    /// region of the disk, met again by every attempt and every way of reading it.
    /// </summary>
    public (long Offset, int Errno)? CopyFileRangeFailsFrom { get; init; }

    /// <summary>The most one copy_file_range moves: smaller than the file, so a fault can land half-way.</summary>
    public long CopyFileRangeMost { get; init; } = long.MaxValue;

    /// <summary>How many bytes the Nth write (1-based) moves of the count it is given; all of them when null.</summary>
    public Func<int, nint, nint>? WriteMost { get; init; }

    private int _clones;
    private int _copyFileRanges;
    private int _reads;
    private int _writes;

    public int CopyFileRanges => _copyFileRanges;

    public int Reads => _reads;

    public int Writes => _writes;

    // Each call is counted before the script is asked (a null script must not skip the count).
    public int Clone(int destination, int source)
    {
        int n = Interlocked.Increment(ref _clones);
        return CloneFault?.Answer(n) is nint answer ? (int)answer : LibCByteCalls.Instance.Clone(destination, source);
    }

    public nint CopyFileRange(int source, long* sourceOffset, int destination, long* destinationOffset, nuint length)
    {
        int n = Interlocked.Increment(ref _copyFileRanges);
        if (CopyFileRangeFailsFrom is var (offset, errno) && *sourceOffset >= offset)
        {
            Marshal.SetLastPInvokeError(errno);
            return -1;
        }

        return CopyFileRangeFault?.Answer(n) is nint answer
            ? answer
            : LibCByteCalls.Instance.CopyFileRange(source, sourceOffset, destination, destinationOffset, (nuint)Math.Min((long)length, CopyFileRangeMost));
    }

    public nint Read(int fd, byte* buffer, nuint count)
    {
        int n = Interlocked.Increment(ref _reads);
        if (CopyFileRangeFailsFrom is var (offset, errno) && CloneCopy.Platform.Linux.LibC.LSeek(fd, 0, SeekCurrent) >= offset)
        {
            Marshal.SetLastPInvokeError(errno);
            return -1;
        }

        return ReadFault?.Answer(n) is nint answer ? answer : LibCByteCalls.Instance.Read(fd, buffer, count);
    }

    public nint Write(int fd, byte* buffer, nuint count)
    {
        int n = Interlocked.Increment(ref _writes);
        if (WriteFault?.Answer(n) is nint answer)
        {
            return answer;
        }

        nint most = WriteMost?.Invoke(n, (nint)count) ?? (nint)count;
        return LibCByteCalls.Instance.Write(fd, buffer, (nuint)Math.Min((long)most, (long)count));
    }

    /// <summary>From call <paramref name="At"/> (1-based): -1 with <paramref name="Errno"/>, or 0 when it is 0; once, or on every later call too.</summary>
    public sealed record Fault(int At, int Errno, bool Persistent = false)
    {
        public nint? Answer(int call)
        {
            if (call != At && !(Persistent && call > At))
            {
                return null;
            }

            if (Errno == 0)
            {
                return 0;
            }

            Marshal.SetLastPInvokeError(Errno);
            return -1;
        }
    }
}
