using System;
using System.Reflection;

namespace CloneCopy;

/// <summary>
/// MSBuild's change waves (MSBUILDDISABLEFEATURESFROMVERSION), as the running MSBuild applies them to its
/// own Copy. Asked of MSBuild itself (Microsoft.Build.Framework's ChangeWaves, which caches the answer for
/// the process) when it can be reached; otherwise read from the environment with MSBuild's rule: a wave's
/// features are on unless the variable names a version at or below it.
/// </summary>
internal static class MSBuildChangeWaves
{
    /// <summary>MSBuild 17.8 to 17.11: Copy deletes an existing writable destination before writing it while this wave is on.</summary>
    public static readonly Version Wave17_8 = new(17, 8);

    /// <summary>From this wave on, Copy retries "access denied" on Unix as it retries other I/O failures.</summary>
    public static readonly Version Wave18_7 = new(18, 7);

    /// <summary>From this wave on (MSBuild 18.11 and later), FileMatcher lists a SourceFolders item breadth first.</summary>
    public static readonly Version Wave18_11 = new(18, 11);

    /// <summary>The variable MSBuild reads change waves from, as the process holds it (MSBuild reads it once per process).</summary>
    public const string DisableFeaturesFromVersionVariable = "MSBUILDDISABLEFEATURESFROMVERSION";

    private static readonly Lazy<Func<Version, bool>?> FromMSBuild = new(FindMSBuildsChangeWaves);

    public static bool AreFeaturesEnabled(Version wave)
    {
        if (FromMSBuild.Value is Func<Version, bool> ask)
        {
            try
            {
                return ask(wave);
            }
            catch (TargetInvocationException)
            {
                // An MSBuild that does not know this wave: decide as below.
            }
        }

        string? disabledFrom = CopyEnvironment.Process.Variable(DisableFeaturesFromVersionVariable);
        return string.IsNullOrWhiteSpace(disabledFrom) || !Version.TryParse(disabledFrom, out Version? disabled) || disabled > wave;
    }

    private static Func<Version, bool>? FindMSBuildsChangeWaves()
    {
        try
        {
            MethodInfo? method = typeof(Microsoft.Build.Framework.ITask).Assembly
                .GetType("Microsoft.Build.Framework.ChangeWaves")
                ?.GetMethod("AreFeaturesEnabled", BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static, null, [typeof(Version)], null);
            return method is null || method.ReturnType != typeof(bool) ? null : wave => (bool)method.Invoke(null, [wave])!;
        }
        catch (Exception e) when (e is TypeLoadException or AmbiguousMatchException or System.Security.SecurityException)
        {
            return null;
        }
    }
}
