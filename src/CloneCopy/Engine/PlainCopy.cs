using System.IO;
using System.Threading;

namespace CloneCopy.Engine;

/// <summary>
/// The rewrite after a clone read back wrong: the bytes read and written by the process, never another clone (.NET's
/// File.Copy calls clonefile on macOS, and Windows' CopyFile clones by itself on ReFS from the Moment 5 update), then
/// what File.Copy gives the file: the source's last write time and its attributes (on macOS its mode). A destination
/// left by a failed removal is written over in place, its READONLY, HIDDEN and SYSTEM attributes cleared first (CopyFile
/// and an open for writing refuse such a file).
/// </summary>
internal static class PlainCopy
{
    private const FileAttributes Carried = FileAttributes.ReadOnly | FileAttributes.Hidden | FileAttributes.System | FileAttributes.Archive | FileAttributes.NotContentIndexed | FileAttributes.Temporary;

    /// <param name="unixModes">The file system has Unix permission bits (macOS): the source's mode is carried instead of Windows attributes.</param>
    public static long Write(string source, string destination, bool unixModes, CancellationToken cancellation)
    {
        if (File.Exists(destination) && (File.GetAttributes(destination) & (FileAttributes.ReadOnly | FileAttributes.Hidden | FileAttributes.System)) != 0)
        {
            File.SetAttributes(destination, FileAttributes.Normal);
        }

        long length;
        using (var from = new FileStream(source, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1))
        using (var to = new FileStream(destination, FileMode.Create, FileAccess.Write, FileShare.None, 1))
        {
            var buffer = new byte[1 << 16];
            int read;
            while ((read = from.Read(buffer, 0, buffer.Length)) > 0)
            {
                cancellation.ThrowIfCancellationRequested();
                to.Write(buffer, 0, read);
            }

            length = to.Length;
        }

        File.SetLastWriteTimeUtc(destination, File.GetLastWriteTimeUtc(source));
#if NET
        if (unixModes)
        {
#pragma warning disable CA1416 // only where the cloner says the file system has Unix modes (macOS)
            File.SetUnixFileMode(destination, File.GetUnixFileMode(source));
#pragma warning restore CA1416
            return length;
        }
#endif

        FileAttributes attributes = File.GetAttributes(source) & Carried;
        File.SetAttributes(destination, attributes == 0 ? FileAttributes.Normal : attributes);
        return length;
    }
}
