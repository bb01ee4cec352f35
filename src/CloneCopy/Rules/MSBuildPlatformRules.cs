using System;
using CloneCopy.Platform;

namespace CloneCopy;

/// <summary>
/// The one place MSBuild's Copy rules learn which rules apply here, from the platform object: whether
/// MSBuild follows its Windows rules (path syntax, MAX_PATH, the read-only attribute, link retries), and how
/// it compares full paths (case-insensitively on Windows and macOS, exactly on Linux).
/// </summary>
internal static class MSBuildPlatformRules
{
    /// <summary>True where MSBuild's Copy takes its Windows branches.</summary>
    public static readonly bool IsWindows = PlatformFactory.Current.FollowsWindowsRules;

    public static readonly StringComparer PathComparer =
        PlatformFactory.Current.ComparesPathsExactly ? StringComparer.Ordinal : StringComparer.OrdinalIgnoreCase;

    public static readonly StringComparison PathComparison =
        PlatformFactory.Current.ComparesPathsExactly ? StringComparison.Ordinal : StringComparison.OrdinalIgnoreCase;
}
