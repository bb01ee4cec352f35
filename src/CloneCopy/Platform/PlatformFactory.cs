using System.Runtime.InteropServices;
using CloneCopy.Engine;
using CloneCopy.Platform.Portable;
using CloneCopy.Platform.Windows;

namespace CloneCopy.Platform;

/// <summary>
/// Builds the one <see cref="IPlatform"/> for the operating system CloneCopy runs on. The only place that
/// asks which OS this is (a test holds it so); everything else asks the platform object.
/// </summary>
internal static class PlatformFactory
{
    /// <summary>What the engine wants the user told, shared by every task in the process.</summary>
    public static EngineDiagnostics Diagnostics { get; } = new();

    /// <summary>Shared by every Copy task in the process, so capability verdicts are learnt once per node.</summary>
    public static IPlatform Current { get; } = Create();

#pragma warning disable RS0030 // the one place that asks which OS this is (BannedSymbols.txt sends every other check here)
    private static IPlatform Create()
    {
        if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows))
        {
            return new WindowsPlatform(WindowsSystemCalls.Instance, Diagnostics);
        }
#if NET
        if (RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
        {
            return Linux.LinuxPlatform.Create(Diagnostics);
        }

        if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX))
        {
            return new MacOS.MacOSPlatform(Diagnostics);
        }

        return new Unix.UnixPlatform();
#else
        return new PortablePlatform();
#endif
    }
#pragma warning restore RS0030
}
