using System.IO;
using CloneCopy.Platform;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// What happens to an existing destination before it is written, by MSBuild's rules plus one protection:
/// read-only is cleared when OverwriteReadOnlyFiles asks; a writable destination is deleted (quietly, as
/// MSBuild does), so the write creates a new file instead of going through a hard link into, say, the NuGet
/// cache; a read-only destination is kept and written in place. MSBuild's write in place into a read-only
/// file fails (access denied, MSB3021), and so does ours: a user may rely on that error. Only where the write
/// would go through (root, whom the mode does not stop) and the destination is itself a hard or symbolic
/// link, whose write in place would change the file it links to (the NuGet cache), is it replaced instead.
/// MSBUILDCOPYWITHOUTDELETE keeps every destination in place.
/// </summary>
internal static class DestinationRules
{
    public static void Prepare(TaskLoggingHelper log, CopyOptions options, string destinationSpec, string destinationFull, PathStatus status)
    {
        if (status.IsLink && !File.Exists(destinationFull))
        {
            // A dangling link: remove it, or the write would create the file it points to.
            if (!options.EscapeHatches.CopyWithoutDelete)
            {
                DeleteQuietly(destinationFull);
            }

            return;
        }

        bool readOnly = ReadOnlyRules.IsReadOnly(status, destinationFull);
        if (readOnly && options.OverwriteReadOnlyFiles)
        {
            log.LogCopyMessage(MessageImportance.Low, CopyMessages.RemovingReadOnlyAttribute, destinationSpec);
            File.SetAttributes(destinationFull, FileAttributes.Normal);
            readOnly = false;
        }

        if (options.EscapeHatches.CopyWithoutDelete)
        {
            return;
        }

        if (!readOnly)
        {
            DeleteQuietly(destinationFull);
        }
        else if (!MSBuildPlatformRules.IsWindows && PlatformFactory.Current.IsSharedEntry(status) && PlatformFactory.Current.WriteWouldSucceed(destinationFull))
        {
            // Not quietly: if this link cannot be removed, writing through it must not happen either. (Where
            // the write would be refused, as for any user but root and always on Windows, where the read-only
            // attribute belongs to the file all its links share, MSBuild's own rule and its error stand.)
            File.Delete(destinationFull);
        }
    }

    /// <summary>Like MSBuild's delete-before-write: a delete that fails is not an error; the write that follows reports.</summary>
    private static void DeleteQuietly(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (System.Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // The copy itself will say what is wrong with this destination.
        }
    }
}
