using System.Threading;

namespace CloneCopy.Engine;

/// <summary>
/// Puts a copy of one file's content, mode and timestamps at a destination path, cloning when it can.
/// Knows nothing of MSBuild: the caller has already decided that the copy must happen and has prepared
/// the destination (parent directory created, an old destination deleted where that is the rule).
/// </summary>
internal interface IFileTransfer
{
    /// <summary>
    /// Copies <paramref name="sourcePath"/> to <paramref name="destinationPath"/>, replacing the
    /// destination's content. Throws an <see cref="System.IO.IOException"/> (or
    /// <see cref="System.UnauthorizedAccessException"/>) for real errors, exactly where File.Copy would.
    /// When it throws, the destination never carries the source's timestamp, so a later up-to-date check
    /// cannot take a half-written file for a finished one.
    /// </summary>
    TransferResult Transfer(string sourcePath, string destinationPath, CancellationToken cancellationToken);
}
