#if NET
using System;
using System.Buffers;
using System.Threading;

namespace CloneCopy.Platform.Linux;

/// <summary>
/// The copy through a user-space buffer: read() and write() until read() says end of file, for a source the kernel
/// would not copy, and for one whose size says nothing (a pipe, a /proc file).
/// </summary>
internal static unsafe class LinuxBufferedCopy
{
    private const int BufferSize = 1024 * 1024;

    public static void Copy(int source, int destination, string destinationPath, long length, CancellationToken cancellationToken)
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
    public static long CopyToEndOfFile(int source, int destination, string destinationPath, CancellationToken cancellationToken) =>
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
}
#endif
