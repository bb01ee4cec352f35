#if NET
using System.IO;
using System.Runtime.InteropServices;
using CloneCopy.Engine;

namespace CloneCopy.Platform.MacOS;

/// <summary>
/// clonefile(2) on APFS. The destination must not exist, so an old one is removed first (the task has
/// already applied MSBuild's delete-before-write rules; this covers MSBUILDCOPYWITHOUTDELETE and races).
/// A clone carries the source's mode and timestamps, as File.Copy's own clonefile call does.
/// </summary>
internal sealed partial class MacCloneFileCloner : IFileCloner
{
    private const uint CloneAcl = 0x4;

    public bool ClonesKeepMetadata => true;

    public string VolumeOf(string path) => MacCloneErrors.VolumeKey(Path.GetFullPath(path));

    public CloneAttempt Clone(string source, string destination)
    {
        if (File.Exists(destination))
        {
            File.Delete(destination);
        }

        int result = CloneFile(source, destination, CloneAcl);
        int errno = result == 0 ? 0 : Marshal.GetLastPInvokeError();
        if (result != 0 && errno == MacCloneErrors.EINVAL)
        {
            result = CloneFile(source, destination, 0); // some volumes reject CLONE_ACL
            errno = result == 0 ? 0 : Marshal.GetLastPInvokeError();
        }

        if (result == 0)
        {
            return CloneAttempt.Cloned;
        }

        string message = $"{Marshal.GetPInvokeErrorMessage(errno)} : '{destination}'";
        return MacCloneErrors.Classify(errno, message) ?? throw new IOException(message, errno);
    }

    [LibraryImport("libc", EntryPoint = "clonefile", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int CloneFile(string source, string destination, uint flags);
}
#endif
