using System.IO;
using System.Threading;
using CloneCopy.Engine;

namespace CloneCopy.Platform.Portable;

/// <summary>
/// The transfer used where CloneCopy has no clone path of its own yet: the platform's File.Copy, exactly
/// what MSBuild's Copy calls. (.NET 8+ on macOS clones inside File.Copy by itself; we cannot see it.)
/// </summary>
internal sealed class PlatformFileCopy : IFileTransfer
{
    public TransferResult Transfer(string sourcePath, string destinationPath, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        File.Copy(sourcePath, destinationPath, overwrite: true);
        long length = new FileInfo(destinationPath).Length;
        return new TransferResult(TransferMethod.Copied, NotClonedReason.NoClonePathOnPlatform, length);
    }
}
