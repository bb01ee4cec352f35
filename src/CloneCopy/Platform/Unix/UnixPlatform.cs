#if NET
using System.IO;
using System.Runtime.InteropServices;
using CloneCopy.Engine;
using CloneCopy.Platform.Portable;

namespace CloneCopy.Platform.Unix;

/// <summary>
/// What Linux, macOS and other Unix systems share: links through the C library, file identity from the
/// device and inode the probe read, MSBuild's non-Windows rules. Used as it is on a Unix system CloneCopy
/// has no clone path for (FreeBSD): .NET's probe and plain copies.
/// </summary>
internal class UnixPlatform : IPlatform
{
    public UnixPlatform()
        : this(new PlatformFileCopy())
    {
    }

    protected UnixPlatform(IFileTransfer transfer) => Transfer = transfer;

    public bool FollowsWindowsRules => false;

    public virtual bool ComparesPathsExactly => false;

    public IFileTransfer Transfer { get; }

    public virtual PathStatus Probe(string fullPath) => DotNetPathProbe.Get(fullPath);

    public bool DestinationIsTheSource(string sourceFull, PathStatus source, string destinationFull, PathStatus destination) =>
        UnixFileIdentity.DestinationIsTheSource(sourceFull, source, destinationFull, destination, Probe);

    public bool IsSharedEntry(PathStatus entry) => UnixFileIdentity.IsSharedEntry(entry);

    public bool WriteWouldSucceed(string path) => UnixLibC.Access(path, UnixLibC.W_OK) == 0;

    public bool TryCreateHardLink(string existingPath, string newPath, out string error) => UnixLinks.TryCreateHardLink(existingPath, newPath, out error);

    public bool TryCreateSymbolicLink(string existingPath, string newPath, out string error) => UnixLinks.TryCreateSymbolicLink(existingPath, newPath, out error);

    /// <summary>rename(2), atomic over an existing file on every POSIX filesystem (Linux, macOS): one system call.</summary>
    public void ReplaceWith(string replacementPath, string destinationPath)
    {
        if (UnixLibC.Rename(replacementPath, destinationPath) != 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            throw new IOException($"{Marshal.GetPInvokeErrorMessage(errno)} : '{destinationPath}'", errno);
        }
    }

    public FileInfo FileItLeadsTo(string path) => DotNetPathProbe.FileItLeadsTo(path);
}
#endif
