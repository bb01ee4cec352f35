using System.Runtime.InteropServices;
using CloneCopy.Platform.Portable;
using CloneCopy.Platform.Windows;

namespace CloneCopy.Engine;

/// <summary>Chooses the transfer chain for the operating system we run on.</summary>
internal static class FileTransferFactory
{
    /// <summary>What the engine wants the user told, shared by every task in the process.</summary>
    public static EngineDiagnostics Diagnostics { get; } = new();

    /// <summary>Shared by every Copy task in the process, so capability verdicts are learnt once per node.</summary>
    public static IFileTransfer Shared { get; } = Create();

    private static IFileTransfer Create()
    {
        if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows))
        {
            // Created lazily, inside the transfer: a failure becomes one message and plain copies.
            return new ClonerTransfer(CopyOnWriteFilesystemCloner.ForThisMachine, Diagnostics);
        }
#if NET
        if (RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
        {
            if (Platform.Linux.LinuxFileTransfer.IsUsable())
            {
                return new Platform.Linux.LinuxFileTransfer(new CloneCapabilityCache<VolumePair>());
            }

            Diagnostics.Report(EngineDiagnosticKind.CloningUnavailable, "process", "the C library's statx/ioctl could not be called");
        }

        if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX))
        {
            return new ClonerTransfer(() => new Platform.MacOS.MacCloneFileCloner(Platform.MacOS.GuardedDarwinCalls.Instance), Diagnostics);
        }
#endif
        return new PlatformFileCopy();
    }
}
