#if NET
namespace CloneCopy.Platform.Linux;

/// <summary>
/// The calls that move a file's bytes on Linux (FICLONE, copy_file_range, read, write), behind one seam so that
/// tests can make them answer what a kernel may answer and a test machine will not on demand: a zero return from
/// copy_file_range half-way through a file, a short write, an I/O error in the middle. Each failure is reported as
/// the C library reports it: -1 with the error left for <see cref="System.Runtime.InteropServices.Marshal.GetLastPInvokeError"/>.
/// </summary>
internal unsafe interface ILinuxByteCalls
{
    /// <summary>ioctl(destination, FICLONE, source): 0, or -1.</summary>
    int Clone(int destination, int source);

    /// <summary>copy_file_range(2) with explicit offsets, which it advances by what it copied.</summary>
    nint CopyFileRange(int source, long* sourceOffset, int destination, long* destinationOffset, nuint length);

    nint Read(int fd, byte* buffer, nuint count);

    nint Write(int fd, byte* buffer, nuint count);
}

/// <summary>The C library itself: what every build uses. One interface call per system call costs nothing next to the call.</summary>
internal sealed unsafe class LibCByteCalls : ILinuxByteCalls
{
    public static readonly LibCByteCalls Instance = new();

    public int Clone(int destination, int source) => LibC.Ioctl(destination, LibC.FICLONE, source);

    public nint CopyFileRange(int source, long* sourceOffset, int destination, long* destinationOffset, nuint length) =>
        LibC.CopyFileRange(source, sourceOffset, destination, destinationOffset, length, 0);

    public nint Read(int fd, byte* buffer, nuint count) => LibC.Read(fd, buffer, count);

    public nint Write(int fd, byte* buffer, nuint count) => LibC.Write(fd, buffer, count);
}
#endif
