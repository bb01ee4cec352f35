namespace CloneCopy.Platform.Windows;

/// <summary>
/// Whether a Windows path names an alternate data stream: a ':' after its root ("out\a.dll:s", "a.dll::$DATA",
/// "a.dll:Zone.Identifier:$DATA"; Naming Files, Paths and Namespaces reserves ':' in names for the drive and streams).
/// Such a path is never block-cloned: cloning into a stream blue-screened a Dev Drive build (microsoft/CopyOnWrite
/// #24; patched builds answer ERROR_NOT_SUPPORTED, PR #25, and no document says which released builds carry the fix),
/// and dotnet/runtime #88695 avoids copying from or to a stream "at all costs". Even "::$DATA", the unnamed stream
/// spelt out, goes to CopyFile: nothing is gained by cloning it and the name is rare. A string test, no call.
/// </summary>
internal static class StreamPaths
{
    public static bool NamesAStream(string path) => path.IndexOf(':', RootLength(path)) >= 0;

    /// <summary>
    /// How much of the path is its root, where a ':' is not a stream's: "\\?\" or "\\.\" (then "UNC\", or a drive
    /// "C:"), or a drive "C:" (also drive-relative "C:a.dll"). A share's "\\server\share" has no colon to skip.
    /// </summary>
    private static int RootLength(string path)
    {
        int at = 0;
        if (path.Length >= 4 && path[0] == '\\' && path[1] == '\\' && (path[2] == '?' || path[2] == '.') && path[3] == '\\')
        {
            at = 4;
            if (string.CompareOrdinal(path, at, @"UNC\", 0, 4) == 0 || string.CompareOrdinal(path, at, @"unc\", 0, 4) == 0)
            {
                return at + 4;
            }
        }

        return path.Length >= at + 2 && path[at + 1] == ':' && IsLetter(path[at]) ? at + 2 : at;
    }

    private static bool IsLetter(char c) => (c | 0x20) is >= 'a' and <= 'z';
}
