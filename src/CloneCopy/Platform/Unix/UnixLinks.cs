using System;
using System.IO;
using System.Runtime.InteropServices;

namespace CloneCopy.Platform;

/// <summary>Creates hard and symbolic links for UseHardlinksIfPossible / UseSymboliclinksIfPossible, and follows them.</summary>
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

    /// <summary>
    /// Returns false with the reason when the link could not be made. On Unix the reason is the errno number,
    /// as MSBuild's Copy reports it (inside "The symlink() library call failed with the following error code").
    /// </summary>
    public static bool TryCreateSymbolicLink(string existingPath, string newPath, out string error)
    {
        if (IsWindows)
        {
            // Through kernel32, so a failure is worded as MSBuild words it (MSB3892), not as .NET's IOException.
            return Windows.WindowsLinks.TryCreateSymbolicLink(existingPath, newPath, out error);
        }

#if NET
        bool made = Linux.LibC.Symlink(existingPath, newPath) == 0;
        error = made ? string.Empty : Marshal.GetLastPInvokeError().ToString(System.Globalization.CultureInfo.InvariantCulture);
        return made;
#else
        // The netstandard2.0 build runs in MSBuild.exe, on Windows only.
        error = "Symbolic links need the .NET build of CloneCopy on this operating system.";
        return false;
#endif
    }

    /// <summary>
    /// The file <paramref name="path"/> leads to: itself, or for a symbolic link its final target, as
    /// File.Copy reads it. On Windows a link's own FileInfo says length 0 and the link's attributes.
    /// A dangling link, or one that cannot be followed, is returned as itself: File.Copy reports it.
    /// </summary>
    public static FileInfo FileItLeadsTo(string path)
    {
        var info = new FileInfo(path);
        try
        {
            int attributes = (int)info.Attributes; // -1 when nothing is there
            if (attributes == -1 || (attributes & (int)FileAttributes.ReparsePoint) == 0)
            {
                return info;
            }
#if NET
            return info.ResolveLinkTarget(returnFinalTarget: true) is FileInfo { Exists: true } target ? target : info;
#else
            return IsWindows && Windows.WindowsLinks.TryGetFinalPath(Windows.Kernel32Calls.Instance, path, out string final) && File.Exists(final)
                ? new FileInfo(final)
                : info;
#endif
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return info;
        }
    }
}
