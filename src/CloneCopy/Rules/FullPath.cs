using System;

namespace CloneCopy;

/// <summary>
/// Fails as MSBuild's Copy fails for a spec that is no path: an empty spec is "The value cannot be an empty
/// string. (Parameter 'path')" on every OS (Windows' own Path.GetFullPath would say "The path is empty."), so
/// MSB3021 reads the same everywhere. Resolving the spec is <see cref="CopyEnvironment"/>'s job.
/// </summary>
internal static class FullPath
{
    public static void ThrowIfEmpty(string spec)
    {
        if (spec.Length == 0)
        {
#if NET
            ArgumentException.ThrowIfNullOrEmpty(spec, "path");
#else
            throw new ArgumentException("The value cannot be an empty string.", "path");
#endif
        }
    }
}
