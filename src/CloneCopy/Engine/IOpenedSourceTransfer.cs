using System;
using System.Threading;
using CloneCopy.Platform;

namespace CloneCopy.Engine;

/// <summary>
/// A transfer that can open the source before the per-file rules look at it, so that the open answers their
/// questions (does it exist, is it a folder, is it read-only, which file is it) and the copy reads from that same
/// descriptor: one look at the source instead of a probe by path and then an open (Linux). Optional: where a
/// transfer lacks it, or the open cannot answer, the rules probe and <see cref="IFileTransfer.Transfer"/> opens.
/// </summary>
internal interface IOpenedSourceTransfer
{
    /// <summary>
    /// Opens <paramref name="path"/> for reading, not through a symbolic link at its end, and reads what the probe
    /// would have read; null when it cannot be opened so (missing, a link, refused, anything else), which the rules
    /// then find out as before, by probing and by the transfer's own open.
    /// </summary>
    OpenedSource? TryOpenSource(string path);

    /// <summary>
    /// Creates <paramref name="destinationPath"/> as a new, empty file (only where nothing is there: O_EXCL), then opens
    /// <paramref name="sourcePath"/> as <see cref="TryOpenSource"/> does: one call tells the rules that nothing was at the
    /// destination, where a look would have cost one more. Null, with nothing left behind, when the destination is
    /// there or cannot be made, or the source cannot be opened or is a folder: the rules then look as before.
    /// </summary>
    OpenedSource? TryCreateDestinationThenOpenSource(string destinationPath, string sourcePath);

    /// <summary>
    /// <see cref="IFileTransfer.Transfer"/> from a source opened by <see cref="TryOpenSource"/>, which stays the
    /// caller's to dispose. <paramref name="destinationAbsent"/>: the rules saw nothing at the destination and
    /// removed nothing, so it is created as new (should something have appeared there since, as before).
    /// </summary>
    TransferResult Transfer(OpenedSource source, string destinationPath, bool destinationAbsent, CancellationToken cancellationToken);
}

/// <summary>A source opened for reading, and what the probe would have said of it; disposing closes it.</summary>
internal abstract class OpenedSource : IDisposable
{
    protected OpenedSource(string path, PathStatus status)
    {
        Path = path;
        Status = status;
    }

    public string Path { get; }

    public PathStatus Status { get; }

    public void Dispose()
    {
        Close();
        GC.SuppressFinalize(this);
    }

    protected abstract void Close();
}
