using System.IO;
using CloneCopy.Platform;

namespace CloneCopy;

/// <summary>
/// A source spelled with a trailing separator ("src/a.txt/"), seen as MSBuild's Copy sees it. MSBuild looks
/// at a source with .NET's FileInfo on Unix, which ignores the separator: the file "exists", the copy then
/// cannot open it and is retried ("Could not find a part of the path"). On Windows it asks
/// GetFileAttributesEx, which finds no file behind "a.txt\": the source is missing (MSB3030). The probe
/// answers as the system call does, so only this spelling needs the correction.
/// </summary>
internal static class TrailingSeparatorRule
{
    public static PathStatus AsMSBuildSeesSource(string fullPath, PathStatus probed)
    {
        if (fullPath.Length < 2 || !IsSeparator(fullPath[fullPath.Length - 1]) || probed.IsDirectory)
        {
            return probed;
        }

        if (MSBuildPlatformRules.IsWindows)
        {
            return new PathStatus(false, false);
        }

        return !probed.Exists && File.Exists(fullPath.TrimEnd('/')) ? new PathStatus(true, false) : probed;
    }

    private static bool IsSeparator(char c) => c == Path.DirectorySeparatorChar || c == Path.AltDirectorySeparatorChar;
}
