using System.Runtime.InteropServices;
using CloneCopy.Platform.Portable;

namespace CloneCopy.Engine;

/// <summary>Chooses the transfer chain for the operating system we run on.</summary>
internal static class FileTransferFactory
{
    /// <summary>Shared by every Copy task in the process, so capability verdicts are learnt once per node.</summary>
    public static IFileTransfer Shared { get; } = Create();

    private static IFileTransfer Create()
    {
#if NET
        if (RuntimeInformation.IsOSPlatform(OSPlatform.Linux) && Platform.Linux.LinuxFileTransfer.IsUsable())
        {
            return new Platform.Linux.LinuxFileTransfer(new CloneCapabilityCache());
        }
#endif
        return new PlatformFileCopy();
    }
}
