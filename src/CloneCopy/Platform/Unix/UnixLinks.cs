#if NET
using System.Globalization;
using System.Runtime.InteropServices;

namespace CloneCopy.Platform.Unix;

/// <summary>Hard and symbolic links for UseHardlinksIfPossible / UseSymboliclinksIfPossible, through the C library.</summary>
internal static class UnixLinks
{
    /// <summary>Returns false with the reason, worded as MSBuild's Copy words it, when the link could not be made.</summary>
    public static bool TryCreateHardLink(string existingPath, string newPath, out string error)
    {
        if (UnixLibC.Link(existingPath, newPath) == 0)
        {
            error = string.Empty;
            return true;
        }

        error = $"The link() library call failed with the following error code: {Marshal.GetLastPInvokeError()}.";
        return false;
    }

    /// <summary>
    /// Returns false with the errno number when the link could not be made, as MSBuild's Copy reports it
    /// (inside "The symlink() library call failed with the following error code").
    /// </summary>
    public static bool TryCreateSymbolicLink(string existingPath, string newPath, out string error)
    {
        bool made = UnixLibC.Symlink(existingPath, newPath) == 0;
        error = made ? string.Empty : Marshal.GetLastPInvokeError().ToString(CultureInfo.InvariantCulture);
        return made;
    }
}
#endif
