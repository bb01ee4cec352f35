namespace CloneCopy.Platform.Windows;

/// <summary>Hard and symbolic links through kernel32 (the .NET Framework build), and where a link leads.</summary>
internal static class WindowsLinks
{
    /// <summary>The first build that accepts SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE; older ones reject it with ERROR_INVALID_PARAMETER.</summary>
    public const int FirstBuildAllowingUnprivilegedSymbolicLinks = 14972;

    /// <summary>
    /// The flags CreateSymbolicLinkW gets on this build: the unprivileged-create flag (developer mode) only
    /// where Windows knows it (Windows 10 build 14972 on; not Server 2016), as MSBuild and .NET do.
    /// </summary>
    public static uint SymbolicLinkFlags(int osBuild) =>
        osBuild >= FirstBuildAllowingUnprivilegedSymbolicLinks ? Win32.SymbolicLinkFlagAllowUnprivilegedCreate : 0;

    public static bool TryCreateHardLink(IWindowsSystemCalls kernel, string existingPath, string newPath, out string error) =>
        Succeeded(kernel.CreateHardLink(newPath, existingPath), out error);

    public static bool TryCreateSymbolicLink(IWindowsSystemCalls kernel, int osBuild, string existingPath, string newPath, out string error) =>
        Succeeded(kernel.CreateSymbolicLink(newPath, existingPath, SymbolicLinkFlags(osBuild)), out error);

    /// <summary>
    /// The final path of the file <paramref name="path"/> leads to (through every link), in DOS form
    /// (C:\dir\file, \\server\share\file), or false when it cannot be opened.
    /// </summary>
    public static bool TryGetFinalPath(IWindowsSystemCalls kernel, string path, out string finalPath)
    {
        finalPath = string.Empty;
        if (kernel.CreateFile(path, Win32.FileReadAttributes, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileFlagBackupSemantics, out var handle) != 0)
        {
            return false;
        }

        try
        {
            if (kernel.GetFinalPathName(handle, out string raw) != 0)
            {
                return false;
            }

            finalPath = WithoutLongPathPrefix(raw);
            return true;
        }
        finally
        {
            kernel.CloseHandle(handle);
        }
    }

    private static string WithoutLongPathPrefix(string path)
    {
        if (path.StartsWith(@"\\?\UNC\", System.StringComparison.OrdinalIgnoreCase))
        {
            return path.Remove(2, 6); // "\\?\UNC\" becomes "\\"
        }

        return path.StartsWith(@"\\?\", System.StringComparison.Ordinal) && path.Length > 6 && path[5] == ':' ? path.Substring(4) : path;
    }

    private static bool Succeeded(int errorCode, out string error)
    {
        error = errorCode == 0 ? string.Empty : Win32.DescribeAsMSBuildDoes(errorCode);
        return errorCode == 0;
    }
}
