using System.IO;
using System.Threading;
using CloneCopy.Engine;

namespace CloneCopy.Platform.MacOS;

/// <summary>
/// clonefile(2) on APFS. Volumes are keyed by st_dev, as the Linux engine keys them, so one ENOTSUP or
/// EXDEV from another volume mounted somewhere under / (/nix, the sealed system volume, autofs or FUSE
/// mounts) condemns only that pair of devices. A clone carries the source's mode and timestamps, as File.Copy's
/// own clonefile call does.
/// <para>
/// clonefile needs a new destination. One that MSBuild's rules kept (MSBUILDCOPYWITHOUTDELETE=1) is replaced
/// exactly as the File.Copy(overwrite) that MSBuild's Copy calls replaces it on macOS (dotnet/runtime,
/// FileSystem.TryCloneFile.OSX.cs): only when it is on the source's device and is not the source itself, opened
/// for reading and writing without sharing (the lock .NET takes), unlinked, then cloned. That File.Copy clones too,
/// so this is no new behaviour, but CloneCopy now knows it cloned and counts it so (a copy it left to File.Copy
/// would have been counted against CloneCopyRequireClones). Whenever File.Copy would not get that far (another
/// device, the same file, a destination it may not open or delete), the file is left to File.Copy, which then
/// does what it always does, with its own exception.
/// </para>
/// </summary>
internal sealed class MacCloneFileCloner : IFileCloner
{
    private const uint CloneAcl = 0x4;

    private readonly IDarwinCalls _calls;

    public MacCloneFileCloner(IDarwinCalls calls) => _calls = calls;

    public bool ClonesKeepMetadata => true;

    /// <summary>Nothing to forget: every volume is named by a fresh stat.</summary>
    public void ForgetVolumes()
    {
    }

    /// <summary>"dev:N" for the device of the file, or of its nearest existing folder when it does not exist yet.</summary>
    public string VolumeOf(string path)
    {
        string? current = path;
        int errno;
        DarwinFileStatus status;
        do
        {
            errno = _calls.Stat(current, out status);
            current = errno is MacCloneErrors.ENOENT or MacCloneErrors.ENOTDIR ? Path.GetDirectoryName(current) : null;
        }
        while (current is not null);

        return errno == 0 ? $"dev:{status.Device}" : throw new IOException($"stat failed with errno {errno} for '{path}'");
    }

    public NotClonedReason ProbeVolumes(string source, string destination) =>
        VolumeOf(source) == VolumeOf(destination) ? NotClonedReason.None : NotClonedReason.DifferentVolumes;

    private static string Describe(int errno) =>
#if NET
#pragma warning disable RS0030 // wording only: the tests run this class on Linux, whose strerror would misread a macOS errno
        System.OperatingSystem.IsMacOS() ? System.Runtime.InteropServices.Marshal.GetPInvokeErrorMessage(errno) : $"clonefile errno {errno}";
#pragma warning restore RS0030
#else
        $"clonefile errno {errno}";
#endif

    public CloneAttempt Clone(string source, string destination, CancellationToken cancellation)
    {
        if (_calls.LStat(destination, out _) == 0 && !RemovedAsFileCopyRemovesIt(source, destination))
        {
            return CloneAttempt.DestinationExists($"'{destination}' exists; clonefile needs a new file");
        }

        int errno = _calls.CloneFile(source, destination, CloneAcl);
        if (errno == MacCloneErrors.EINVAL)
        {
            errno = _calls.CloneFile(source, destination, 0); // some volumes reject CLONE_ACL
        }

        if (errno == 0)
        {
            return CloneAttempt.Cloned;
        }

        string message = $"{Describe(errno)} : '{destination}'";
        return MacCloneErrors.Classify(errno, message) ?? throw new IOException(message, errno);
    }

    /// <summary>
    /// The steps File.Copy(overwrite: true) takes on macOS before its own clonefile: true when the kept destination
    /// is gone and a clone may take its place.
    /// </summary>
    private bool RemovedAsFileCopyRemovesIt(string source, string destination) =>
        // stat follows links, as .NET's does: a link's target decides the device and the identity. Locked by
        // another process, not writable, not removable: File.Copy meets the same and says so itself.
        _calls.Stat(destination, out DarwinFileStatus kept) == 0 && _calls.Stat(source, out DarwinFileStatus from) == 0
        && kept.Device == from.Device && kept.Inode != from.Inode && !kept.IsDirectory
        && _calls.RemoveUnshared(destination) == 0;
}
