using System;
using System.Runtime.InteropServices;

namespace CloneCopy;

/// <summary>How MSBuild compares full paths: case-insensitively on Windows and macOS, exactly on Linux.</summary>
internal static class PathComparison
{
    public static readonly StringComparer Comparer =
        RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? StringComparer.Ordinal : StringComparer.OrdinalIgnoreCase;

    public static readonly StringComparison Comparison =
        RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? StringComparison.Ordinal : StringComparison.OrdinalIgnoreCase;
}
