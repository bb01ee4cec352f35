using System;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// The build number of the running Windows (19045, 22631, 26100...), read once with RtlGetVersion:
/// .NET Framework's Environment.OSVersion reports 6.2 (build 9200) to an executable without a Windows 10
/// manifest, and decisions here depend on the real build. Under Wine it is the version the prefix claims
/// (Wine 8's default prefix says Windows 7, build 7601).
/// </summary>
internal static class WindowsOsBuild
{
    private static readonly Lazy<int> Build = new(Read);

    /// <summary>The running build, or 0 when it cannot be read.</summary>
    public static int Current => Build.Value;

#pragma warning disable RS0030 // .NET's answer, only where RtlGetVersion cannot be called (on Windows, inside the Windows folder)
    private static int Read()
    {
        try
        {
            return WindowsSystemCalls.RunningBuild() ?? Environment.OSVersion.Version.Build;
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
        {
            return Environment.OSVersion.Version.Build;
        }
    }
#pragma warning restore RS0030
}
