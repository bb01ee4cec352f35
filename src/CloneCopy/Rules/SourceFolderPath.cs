using System;
using System.IO;

namespace CloneCopy;

/// <summary>
/// A SourceFolders item's path as MSBuild's Copy holds it, and how it then names the folder's files. MSBuild
/// joins the item to the current directory and normalizes the result only when it may hold a "." or ".."
/// segment ("/." or "\." in it) or the other OS's separator; so "tree/." and "tree/sub/.." are named "tree",
/// "tree/" keeps its separator (an empty name: its files land directly in DestinationFolder), and on Unix
/// "a//tree" keeps its doubled separator. Its enumeration then names each file relative to that path when the
/// file's (normalized) path starts with it, and by its full path otherwise, which makes the destination
/// the source itself: the "a//tree" spelling copies nothing, and says so in DestinationFiles.
/// <para>
/// Its order: MSBuild 18.11+ (change wave 18.11) lists a folder breadth first, except a folder whose path, as MSBuild
/// holds it, is a whole drive's root: its FileMatcher keeps the old walk for a root that "**" would enumerate
/// entirely (<see cref="IsDriveRoot"/>).
/// </para>
/// </summary>
internal sealed class SourceFolderPath
{
    private SourceFolderPath(string asMSBuildHoldsIt)
    {
        Value = asMSBuildHoldsIt;
        Name = Path.GetFileName(asMSBuildHoldsIt);
        FullPath = Path.GetFullPath(asMSBuildHoldsIt);
    }

    /// <summary>The path as MSBuild holds it (joined, normalized only where MSBuild normalizes).</summary>
    public string Value { get; }

    /// <summary>The folder's name under DestinationFolder.</summary>
    public string Name { get; }

    /// <summary>The normalized path, where the enumeration starts.</summary>
    public string FullPath { get; }

    /// <param name="msbuild">
    /// The MSBuild whose rule applies: before 18.4 its Copy made every SourceFolders item a full, normalized path
    /// ("a//tree" copied as "a/tree"); null for the running one.
    /// </param>
    public static SourceFolderPath Of(string itemSpec, CopyEnvironment environment, RunningMSBuild? msbuild = null)
    {
        string joined = environment.AbsolutePathOf(itemSpec);
        bool normalize = !(msbuild ?? RunningMSBuild.Current).Has(RunningMSBuild.SourceFoldersKeptAsSpelled)
            || joined.Contains("/.") || joined.Contains("\\.") || joined.Contains(MSBuildPlatformRules.IsWindows ? '/' : '\\');
        return new SourceFolderPath(normalize ? FixSeparators(Path.GetFullPath(joined)) : joined);
    }

    /// <summary>
    /// Whether MSBuild lists this folder's files breadth first, given whether the running MSBuild's new walk is on
    /// (<see cref="RunningMSBuild.ListsSourceFoldersBreadthFirst"/>): never for a drive's root.
    /// </summary>
    public bool ListedBreadthFirst(bool newWalkOn) => newWalkOn && !IsDriveRoot(Value, MSBuildPlatformRules.IsWindows);

    /// <summary>
    /// True for a folder MSBuild 18.11+'s FileMatcher still walks the old way: a path (as MSBuild holds it) that is its own
    /// path root and made of nothing but separators after an optional drive ("/" on Unix; "C:\", "C:/" or "\" on
    /// Windows). Only that is a "drive-enumerating" root to MSBuild: a mount point ("/mnt/xfs"), a UNC share's root
    /// ("\\server\share") or "\\?\C:\" are walked breadth first like any folder. The other cases MSBuild keeps the old
    /// walk for cannot come from a SourceFolders item: Copy always asks for "**" under the folder (never a spec ending in
    /// a separator or a drive-relative one), and its FileMatcher's file systems all enumerate directly.
    /// </summary>
    /// <param name="windows">Windows' path rules (a drive letter, either separator) or Unix's.</param>
    internal static bool IsDriveRoot(string folder, bool windows)
    {
        if (!windows)
        {
            // Every Unix path's root is "/": "//" is not its own root.
            return folder == "/";
        }

        // "X:" and one separator, or a separator alone (the current drive's root). "\\" and "//" are roots too by
        // MSBuild's test, but no such folder exists: they contribute nothing either way.
        return folder.Length == 1 ? IsSeparator(folder[0])
            : folder.Length == 3 && IsAsciiLetter(folder[0]) && folder[1] == ':' && IsSeparator(folder[2]);
    }

    private static bool IsAsciiLetter(char c) => c is (>= 'a' and <= 'z') or (>= 'A' and <= 'Z');

    /// <summary>What MSBuild joins to DestinationFolder and the folder's name: the relative path, or the file's full path.</summary>
    public string NameOf(string filePath, string relative) =>
        filePath.StartsWith(Value, MSBuildPlatformRules.PathComparison) && (IsSeparator(Value[Value.Length - 1]) || (filePath.Length > Value.Length && IsSeparator(filePath[Value.Length])))
            ? relative
            : filePath;

    /// <summary>On Unix MSBuild turns backslashes into separators after normalizing.</summary>
    private static string FixSeparators(string path) => MSBuildPlatformRules.IsWindows ? path : path.Replace('\\', '/');

    private static bool IsSeparator(char c) => c == '/' || c == '\\';
}
