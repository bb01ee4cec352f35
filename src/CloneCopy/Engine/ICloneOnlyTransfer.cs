using System.Threading;

namespace CloneCopy.Engine;

/// <summary>
/// A transfer that can be asked for a clone and nothing else: for CloneCopyClonesInsteadOfLinks, where a
/// clone replaces a hard or symbolic link, and where no clone is possible MSBuild's link rules must run
/// untouched (so no data copy may happen here).
/// </summary>
internal interface ICloneOnlyTransfer
{
    /// <summary>
    /// Clones the source to the destination (a new file; the caller has removed any old one) with the
    /// source's mode and times, as a copy would have them. False, with nothing left behind, when this pair
    /// cannot be cloned or the clone failed in any way: then the link MSBuild would make decides.
    /// </summary>
    bool TryCloneOnly(string sourcePath, string destinationPath, CancellationToken cancellationToken, out TransferResult result);
}
