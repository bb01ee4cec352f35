namespace CloneCopy;

/// <summary>
/// The path MSBuild's Copy looks at a file through (its FileState: exists, folder, read-only, size and time).
/// On Unix that path has every backslash read as '/' (MSBuild's FileUtilities.FixFilePath, so that Windows
/// spellings work), while the copy, the link and the messages use the path as given. A source whose name
/// holds a backslash ("back%5Cslash.txt") is therefore not found (MSB3030) unless "back/slash.txt" exists.
/// </summary>
internal static class FileStatePath
{
    public static string Of(string path) => MSBuildPlatformRules.IsWindows || !path.Contains('\\') ? path : path.Replace('\\', '/');
}
