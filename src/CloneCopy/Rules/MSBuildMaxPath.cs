using System;
using System.IO;
using System.Reflection;

namespace CloneCopy;

/// <summary>
/// On Windows without long paths enabled (LongPathsEnabled off, the default), MSBuild's Copy refuses a
/// destination folder whose full path reaches MAX_PATH (260) before it even looks for it, with its own
/// PathTooLongException ("Path: ... exceeds the OS max path limit ..."), reported as MSB3021 without retries.
/// The limit and the words are MSBuild's own (Microsoft.Build.Framework), asked of it here; an MSBuild that
/// cannot be asked sets no limit, and neither does CloneCopy.
/// </summary>
internal static class MSBuildMaxPath
{
    private static MaxPathRule? s_rule;

    private static MaxPathRule Rule => s_rule ??= Find();

    public static void ThrowIfTooLong(string directoryFullPath)
    {
        if (!MSBuildPlatformRules.IsWindows || directoryFullPath.Length < Rule.Limit)
        {
            return;
        }

        string message = Rule.Format?.Invoke(directoryFullPath, Rule.Limit)
            ?? $"Path: {directoryFullPath} exceeds the OS max path limit. The fully qualified file name must be less than {Rule.Limit} characters.";
        throw new PathTooLongException(message);
    }

    private static MaxPathRule Find()
    {
        try
        {
            Assembly framework = typeof(Microsoft.Build.Framework.ITask).Assembly;
            PropertyInfo? maxPath = framework.GetType("Microsoft.Build.Framework.NativeMethods")?.GetProperty("MaxPath", BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic);
            if (maxPath?.GetValue(null) is not int limit)
            {
                return new MaxPathRule(int.MaxValue, null);
            }

            MethodInfo? format = framework.GetType("Microsoft.Build.Framework.Resources.SR")?.GetMethod("FormatPathTooLong", BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic, null, [typeof(object), typeof(object)], null);
            return new MaxPathRule(limit, format is null ? null : (path, max) => (string)format.Invoke(null, [path, max])!);
        }
        catch (Exception e) when (e is TargetInvocationException or TypeLoadException or AmbiguousMatchException or MemberAccessException)
        {
            return new MaxPathRule(int.MaxValue, null);
        }
    }

    private sealed record MaxPathRule(int Limit, Func<string, int, string>? Format);
}
