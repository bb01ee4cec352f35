using System;
using System.Runtime.InteropServices;

namespace CloneCopy.Tests.Windows;

/// <summary>Where Wine keeps a Windows path on the host, to reach one file by two drive letters (C: and Z:).</summary>
internal static partial class WinePaths
{
    /// <summary>The same file by Wine's Z: drive, which maps the host's root: a second path to one directory entry.</summary>
    public static string ThroughDriveZ(string windowsPath)
    {
        IntPtr unix = wine_get_unix_file_name(windowsPath);
        if (unix == IntPtr.Zero)
        {
            throw new InvalidOperationException($"Wine has no host path for {windowsPath}");
        }

        return @"Z:" + Marshal.PtrToStringUTF8(unix)!.Replace('/', '\\');
    }

    [LibraryImport("kernel32.dll", StringMarshalling = StringMarshalling.Utf16)]
    private static partial IntPtr wine_get_unix_file_name(string dosPath);
}
