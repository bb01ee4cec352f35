using System;

namespace CloneCopy;

/// <summary>
/// Fails as MSBuild's Copy fails for a spec that is no path: an empty spec is "The value cannot be an empty
/// string. (Parameter 'path')" on every OS (Windows' own Path.GetFullPath would say "The path is empty."), so
/// MSB3021 reads the same everywhere. Resolving the spec is <see cref="CopyEnvironment"/>'s job.
/// </summary>
internal static class FullPath
{
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Usage", "CA2208:Instantiate argument exceptions correctly", Justification = "MSB3021 must end \"(Parameter 'path')\" as MSBuild's Copy's does: the name is Path.GetFullPath's parameter, not this method's.")]
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
