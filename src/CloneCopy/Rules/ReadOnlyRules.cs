using System.IO;
using CloneCopy.Platform;

namespace CloneCopy;

/// <summary>
/// MSBuild's read-only rules, with .NET's meaning of "read-only" (the ReadOnly attribute on Windows; on Unix,
/// "may read but not write" for the current user's permission class). A read-only destination is kept
/// (not deleted) unless OverwriteReadOnlyFiles; after copying or linking from a read-only source, the
/// destination is made writable, so that the next build can replace it when the source changes.
/// </summary>
internal static class ReadOnlyRules
{
    public static bool IsReadOnly(PathStatus status, string fullPath) =>
        status.IsReadOnly ?? new FileInfo(fullPath).IsReadOnly;

    /// <summary>
    /// Clears read-only as MSBuild's Copy does: the attributes become Normal (on Unix, the owner gets write
    /// permission). Returns false when there was nothing to do.
    /// </summary>
    public static bool MakeWritable(string fullPath)
    {
        var file = new FileInfo(fullPath);
        if (!file.Exists || !file.IsReadOnly)
        {
            return false;
        }

        File.SetAttributes(fullPath, FileAttributes.Normal);
        return true;
    }
}
