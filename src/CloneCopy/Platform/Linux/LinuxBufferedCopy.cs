#if NET
using System;
using System.Buffers;
using System.IO;
using System.Threading;

namespace CloneCopy.Platform.Linux;

/// <summary>
/// The copy through a user-space buffer: read() and write() until read() says end of file, for a source the kernel
/// would not copy, and for one whose size says nothing (a pipe, a /proc file).
/// </summary>
internal static unsafe class LinuxBufferedCopy
{
    private const int BufferSize = 1024 * 1024;

    /// <summary>
    /// Copies a source of known <paramref name="length"/> from <paramref name="from"/> (where a kernel copy stopped, or
    /// 0) to its end. Returns where the destination ends: <paramref name="length"/>, or less where read() reached end of
    /// file first. Then the destination holds what there was, as File.Copy (and so MSBuild's Copy) leaves it, cut to
    /// that size; the caller must not give it the source's last-write time, which belongs to a file of another size.
    /// </summary>
    public static long Copy(ILinuxByteCalls calls, int source, int destination, string destinationPath, long from, long length, CancellationToken cancellationToken)
    {
        // Reserve the blocks first: fewer extents. File.Copy makes no such call, so whatever it answers, the writes go
        // on as File.Copy's would: a disk that is really full or failing refuses them too, with the same error.
        _ = LibC.FAllocate(destination, 0, 0, length);

        if (from != 0)
        {
            // copy_file_range with explicit offsets leaves both files' positions at 0: only this rare path moves them.
            SeekOrThrow(source, from, destinationPath);
            SeekOrThrow(destination, from, destinationPath);
        }

        long end = from + ReadWriteLoop(calls, source, destination, destinationPath, (int)Math.Min(BufferSize, Math.Max(length - from, 4096)), cancellationToken);
        if (end < length && LibC.FTruncate(destination, end) != 0)
        {
            // The preallocated tail would stay as zeros at the source's size: the one shape of wrong file that a
            // size-and-time check cannot see. File.Copy preallocates nothing and makes no such call: the pair is its.
            throw new LinuxFileTransfer.OwnCallFailed();
        }

        return end;
    }

    private static void SeekOrThrow(int fd, long offset, string destinationPath)
    {
        if (LibC.LSeek(fd, offset, LibC.SEEK_SET) != offset)
        {
            // File.Copy never seeks (it copies from the start, in one go): the pair is left to it.
            throw new LinuxFileTransfer.OwnCallFailed();
        }
    }

    /// <summary>
    /// A source whose size says nothing (0, or not a regular file): read until read() says end of file,
    /// with no preallocation, since the size is not known. Returns the bytes written.
    /// </summary>
    public static long CopyToEndOfFile(ILinuxByteCalls calls, int source, int destination, string destinationPath, CancellationToken cancellationToken) =>
        ReadWriteLoop(calls, source, destination, destinationPath, UnknownLengthBufferSize, cancellationToken);

    /// <summary>64 KiB: a pipe's default capacity, and small enough for the usual empty file's one read.</summary>
    private const int UnknownLengthBufferSize = 64 * 1024;

    /// <summary>read() and write() until read() returns 0 (end of file); returns the bytes written.</summary>
    private static long ReadWriteLoop(ILinuxByteCalls calls, int source, int destination, string destinationPath, int bufferSize, CancellationToken cancellationToken)
    {
        byte[] buffer = ArrayPool<byte>.Shared.Rent(bufferSize);
        long written = 0;
        long readTotal = 0;
        try
        {
            fixed (byte* start = buffer)
            {
                while (true)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    nint read = calls.Read(source, start, (nuint)buffer.Length);
                    if (read < 0)
                    {
                        int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
                        if (errno == LinuxErrors.EINTR)
                        {
                            continue;
                        }

                        throw LinuxErrors.ToException(errno, path: null);
                    }

                    if (read == 0)
                    {
                        break;
                    }

                    readTotal += read;
                    written += WriteAll(calls, destination, destinationPath, start, read);
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        if (written != readTotal)
        {
            // Counted from write()'s answers, apart from what read() gave: if they disagree, the destination's bytes are
            // not the source's (shifted, or a gap in the preallocated length), and it must not be finished and stamped.
            throw new IOException($"Wrote {written} bytes of the {readTotal} read : '{destinationPath}'");
        }

        return written;
    }

    private static long WriteAll(ILinuxByteCalls calls, int destination, string destinationPath, byte* data, nint count)
    {
        long total = 0;
        while (count > 0)
        {
            nint done = calls.Write(destination, data, (nuint)count);
            if (done < 0)
            {
                int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
                if (errno == LinuxErrors.EINTR)
                {
                    continue;
                }

                throw LinuxErrors.ToException(errno, path: null);
            }

            data += done;
            count -= done;
            total += done;
        }

        return total;
    }
}
#endif
