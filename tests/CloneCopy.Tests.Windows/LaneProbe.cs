using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using CloneCopy.Tests.Windows;

namespace CloneCopy.Tests;

/// <summary>
/// What this program's tests need from the Windows they run on (their traits Needs=...), probed there: the lanes run
/// <c>CloneCopy.Tests.Windows --probe</c> first and leave out the traits answered "no" (scripts/wine-lane.sh under
/// Wine, scripts/test.sh on Windows), naming them in their line.
/// </summary>
internal static class LaneProbe
{
    public static IEnumerable<Capability> All()
    {
        yield return CapabilityProbe.SymbolicLinks;
        yield return CapabilityProbe.RenameOverOpenFile;
        yield return CapabilityProbe.UnixFileModes;
        yield return RealRefsVolume();
        yield return Wine();
    }

    /// <summary>The ReFS folder of CLONECOPY_TEST_REFS on a volume that says it can clone blocks.</summary>
    private static Capability RealRefsVolume()
    {
        const string need = "RealRefs";
        if (RealRefs.Root is not string root)
        {
            return new Capability(need, false, $"{RealRefs.Variable} names no existing folder");
        }

        var calls = WindowsSystemCalls.Instance;
        int error = calls.GetVolumePathName(root, out string volume);
        error = error != 0 ? error : calls.GetVolumeInformation(volume, out _, out uint flags, out string fileSystem);
        if (error != 0)
        {
            return new Capability(need, false, $"the volume of {root} could not be asked (error {error})");
        }

        calls.GetVolumeInformation(volume, out _, out flags, out fileSystem);
        return (flags & Win32.FileSupportsBlockRefcounting) != 0
            ? new Capability(need, true, $"{root} is on {fileSystem} ({volume}), which clones blocks")
            : new Capability(need, false, $"{root} is on {fileSystem} ({volume}), which does not say FILE_SUPPORTS_BLOCK_REFCOUNTING");
    }

    /// <summary>Wine, by ntdll's wine_get_version (the tests of Wine's own answers run only there).</summary>
    private static Capability Wine()
    {
        const string need = "Wine";
        if (NativeLibrary.TryLoad("ntdll.dll", out IntPtr ntdll) && NativeLibrary.TryGetExport(ntdll, "wine_get_version", out IntPtr export))
        {
            unsafe
            {
                string version = Marshal.PtrToStringUTF8(((delegate* unmanaged<IntPtr>)export)()) ?? "?";
                return new Capability(need, true, $"Wine {version} (ntdll's wine_get_version)");
            }
        }

        return new Capability(need, false, "ntdll has no wine_get_version: Windows itself");
    }
}
