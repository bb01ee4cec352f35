#if NET
using CloneCopy.Engine;

namespace CloneCopy.Platform.Linux;

/// <summary>
/// A clone's source and destination as the transfer holds them open, read back with pread(2): no handle object, no
/// position moved, nothing for a fresh node to set up (.NET's positional read over a descriptor wrapped in a
/// SafeFileHandle cost the first clone of a build over a millisecond before its first byte).
/// </summary>
internal readonly unsafe struct LinuxDescriptorPair : IClonePairReader
{
    private readonly int _source;
    private readonly int _destination;
    private readonly string _destinationPath;

    public LinuxDescriptorPair(int source, int destination, string destinationPath)
    {
        _source = source;
        _destination = destination;
        _destinationPath = destinationPath;
    }

    public int Read(bool destination, byte[] buffer, int count, long offset)
    {
        int fd = destination ? _destination : _source;
        int total = 0;
        fixed (byte* start = buffer)
        {
            while (total < count)
            {
                nint read = LibC.PRead(fd, start + total, (nuint)(count - total), offset + total);
                if (read > 0)
                {
                    total += (int)read;
                    continue;
                }

                if (read == 0)
                {
                    break;
                }

                int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
                if (errno != LinuxErrors.EINTR)
                {
                    // File.Copy never reads a clone back, so MSBuild's Copy would not have met this error: the pair goes
                    // to File.Copy (the clone, unread, as MSBuild's Copy leaves it), not to MSBuild's retries.
                    throw new LinuxFileTransfer.OwnCallFailed();
                }
            }
        }

        return total;
    }
}
#endif
