using System;
using System.Runtime.CompilerServices;

namespace CloneCopy;

/// <summary>
/// The sentence MSBuild's Copy appends to its retry messages naming the processes that hold a file
/// (Windows' Restart Manager; empty elsewhere), from MSBuild's own public LockCheck where the running
/// MSBuild has it.
/// </summary>
internal sealed class LockedFileMessage : ILockedFileMessage
{
    private static bool s_unavailable;

    private LockedFileMessage()
    {
    }

    /// <summary>The one answer of a build: MSBuild's.</summary>
    public static LockedFileMessage MSBuilds { get; } = new();

    public string For(string path)
    {
        if (s_unavailable)
        {
            return string.Empty;
        }

        try
        {
            return Ask(path);
        }
        catch (Exception e) when (e is MissingMethodException or TypeLoadException)
        {
            // An MSBuild older than LockCheck's public API: its Copy says nothing more either.
            s_unavailable = true;
            return string.Empty;
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static string Ask(string path) => Microsoft.Build.Utilities.LockCheck.GetLockedFileMessage(path) ?? string.Empty;
}
