using System;
using System.IO;

namespace CloneCopy.Platform.Portable;

/// <summary>
/// The answers .NET's File.Exists / Directory.Exists give, for a platform (or a moment) where CloneCopy
/// cannot ask the system itself. The per-OS probes (statx on Linux, lstat on macOS, one attribute query on
/// Windows) give the same answers with fewer calls and fall back to this.
/// </summary>
internal static class DotNetPathProbe
{
    public static PathStatus Get(string fullPath)
    {
        if (Directory.Exists(fullPath))
        {
            return new PathStatus(true, true);
        }

        bool isLink = IsLink(new FileInfo(fullPath));
        return new PathStatus(File.Exists(fullPath) || isLink, false) { IsLink = isLink };
    }

    /// <summary>True for a symbolic link or junction (not for other reparse points: deduplicated or cloud files).</summary>
    public static bool IsLink(FileInfo info)
    {
#if NET
        try
        {
            return info.LinkTarget is not null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
#else
        int attributes = (int)info.Attributes; // -1 when nothing is there
        return attributes != -1 && (attributes & (int)FileAttributes.ReparsePoint) != 0;
#endif
    }

    /// <summary>
    /// The file <paramref name="path"/> leads to: itself, or for a symbolic link its final target, as
    /// File.Copy reads it (on Windows a link's own FileInfo says length 0 and the link's attributes).
    /// <paramref name="finalTarget"/> follows a link where .NET cannot (the .NET Framework build): null when it
    /// cannot. A dangling link, or one that cannot be followed, is returned as itself: File.Copy reports it.
    /// </summary>
    public static FileInfo FileItLeadsTo(string path, Func<string, string?>? finalTarget = null)
    {
        var info = new FileInfo(path);
        try
        {
            int attributes = (int)info.Attributes; // -1 when nothing is there
            if (attributes == -1 || (attributes & (int)FileAttributes.ReparsePoint) == 0)
            {
                return info;
            }
#if NET
            return info.ResolveLinkTarget(returnFinalTarget: true) is FileInfo { Exists: true } target ? target : info;
#else
            return finalTarget?.Invoke(path) is string final && File.Exists(final) ? new FileInfo(final) : info;
#endif
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return info;
        }
    }
}
