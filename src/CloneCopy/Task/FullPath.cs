using System;
using System.IO;

namespace CloneCopy;

/// <summary>
/// The full path of an item spec, failing as MSBuild's Copy fails for a spec that is no path: an empty
/// spec is "The value cannot be an empty string. (Parameter 'path')" on every OS (Windows' own
/// Path.GetFullPath would say "The path is empty."), so MSB3021 reads the same everywhere.
/// </summary>
internal static class FullPath
{
    public static string Of(string spec)
    {
        if (spec.Length == 0)
        {
#if NET
            ArgumentException.ThrowIfNullOrEmpty(spec, "path");
#else
            throw new ArgumentException("The value cannot be an empty string.", "path");
#endif
        }

        return Path.GetFullPath(spec);
    }
}
