using System;
using System.IO;
using System.Runtime.InteropServices;

namespace CloneCopy.Platform;

/// <summary>Creates hard and symbolic links for UseHardlinksIfPossible / UseSymboliclinksIfPossible.</summary>
internal static class FileLinks
{
    private static readonly bool IsWindows = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

    /// <summary>Returns false with the reason when the link could not be made.</summary>
    public static bool TryCreateHardLink(string existingPath, string newPath, out string error)
    {
        if (IsWindows)
        {
            return Windows.WindowsLinks.TryCreateHardLink(existingPath, newPath, out error);
        }
#if NET
        if (Linux.LibC.Link(existingPath, newPath) == 0)
        {
            error = string.Empty;
            return true;
        }

        error = $"The link() library call failed with the following error code: {Marshal.GetLastPInvokeError()}.";
        return false;
#else
        error = "Hard links need the .NET build of CloneCopy on this operating system.";
        return false;
#endif
    }

    public static bool TryCreateSymbolicLink(string existingPath, string newPath, out string error)
    {
        try
        {
#if NET
            File.CreateSymbolicLink(newPath, existingPath);
            error = string.Empty;
            return true;
#else
            return Windows.WindowsLinks.TryCreateSymbolicLink(existingPath, newPath, out error);
#endif
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            error = e.Message;
            return false;
        }
    }
}
