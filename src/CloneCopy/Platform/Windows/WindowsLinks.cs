using System.ComponentModel;
using System.Runtime.InteropServices;

namespace CloneCopy.Platform.Windows;

/// <summary>Hard and symbolic links through kernel32, for the .NET Framework build on Windows.</summary>
internal static class WindowsLinks
{
    private const int SymbolicLinkFlagAllowUnprivilegedCreate = 0x2;

    public static bool TryCreateHardLink(string existingPath, string newPath, out string error)
    {
        if (CreateHardLink(newPath, existingPath, System.IntPtr.Zero))
        {
            error = string.Empty;
            return true;
        }

        error = new Win32Exception(Marshal.GetLastWin32Error()).Message;
        return false;
    }

    public static bool TryCreateSymbolicLink(string existingPath, string newPath, out string error)
    {
        if (CreateSymbolicLink(newPath, existingPath, SymbolicLinkFlagAllowUnprivilegedCreate))
        {
            error = string.Empty;
            return true;
        }

        error = new Win32Exception(Marshal.GetLastWin32Error()).Message;
        return false;
    }

    [DllImport("kernel32.dll", EntryPoint = "CreateHardLinkW", CharSet = CharSet.Unicode, SetLastError = true)]
    private static extern bool CreateHardLink(string newFileName, string existingFileName, System.IntPtr securityAttributes);

    [DllImport("kernel32.dll", EntryPoint = "CreateSymbolicLinkW", CharSet = CharSet.Unicode, SetLastError = true)]
    [return: MarshalAs(UnmanagedType.I1)]
    private static extern bool CreateSymbolicLink(string symlinkFileName, string targetFileName, int flags);
}
