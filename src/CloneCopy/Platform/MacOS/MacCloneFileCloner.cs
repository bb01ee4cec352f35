using System.IO;
using System.Threading;
using CloneCopy.Engine;

namespace CloneCopy.Platform.MacOS;

/// <summary>
/// clonefile(2) on APFS. Volumes are keyed by st_dev, as the Linux engine keys them, so one ENOTSUP or
/// EXDEV from another volume mounted somewhere under / (/nix, the sealed system volume, autofs or FUSE
/// mounts) condemns only that pair of devices. clonefile needs a new destination; this cloner never deletes
/// an existing one (only the task's rules delete): it answers "the destination exists", and File.Copy
/// writes it with .NET's own checks. A clone carries the source's mode and timestamps, as File.Copy's own
/// clonefile call does.
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
        if (_calls.LStat(destination, out _) == 0)
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
}
