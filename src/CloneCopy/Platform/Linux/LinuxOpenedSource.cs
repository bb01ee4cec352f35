#if NET
using System;
using System.Threading;
using CloneCopy.Engine;

namespace CloneCopy.Platform.Linux;

/// <summary>A source opened by <see cref="LinuxFileTransfer.TryOpenSource"/>, with the destination made for it where one was.</summary>
internal sealed class LinuxOpenedSource : OpenedSource
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
#endif
