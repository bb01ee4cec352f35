using System;
using System.IO;
using CloneCopy.Engine;
using CloneCopy.Platform;
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// CloneCopyAtomicReplace: an existing destination is never deleted first. The new file is made under a temporary
/// name beside it (<see cref="ReplacementFiles"/>) exactly as it would have been made at the destination (cloned,
/// copied, linked; the same mode, times and read-only rule), then renamed over it in one step
/// (<see cref="IPlatform.ReplaceWith"/>): a reader finds the old file or the new one, never neither or half of one.
/// MSBuild's rules that look at the destination keep their meaning: a read-only destination is replaced only with
/// OverwriteReadOnlyFiles (without it, MSBuild's write in place and its error stand); MSBUILDCOPYWITHOUTDELETE keeps
/// the destination in place, as asked. Where the new file cannot be made beside the old one, or the rename is refused,
/// the destination is replaced as MSBuild's Copy replaces it, with its outcome and error.
/// </summary>
internal sealed partial class PairAttempt
{
    /// <summary>
    /// Whether this existing destination is replaced by a rename. Clears the read-only attribute first where
    /// OverwriteReadOnlyFiles asks (with MSBuild's message), and says so in <paramref name="destination"/>.
    /// </summary>
    private bool ReplacesAtomically(CopyPair pair, string destinationFull, ref PathStatus destination)
    {
        if (_options.EscapeHatches.CopyWithoutDelete)
        {
            return false; // the destination is to be written in place: nothing is replaced
        }

        if (destination.IsLink && !File.Exists(destinationFull))
        {
            return true; // a dangling link: replaced by the new file, as the delete would have removed it
        }

        if (!ReadOnlyRules.IsReadOnly(destination, destinationFull))
        {
            return true;
        }

        if (!_options.OverwriteReadOnlyFiles)
        {
            return false; // MSBuild writes into it in place, which fails for anyone but root; a rename would not
        }

        _log.LogCopyMessage(MessageImportance.Low, CopyMessages.RemovingReadOnlyAttribute, pair.DestinationSpec);
        File.SetAttributes(destinationFull, FileAttributes.Normal);
        destination = Writable(destination);
        return true;
    }

    private PairOutcome ReplaceAtomically(CopyPair pair, string sourceFull, string destinationFull, PathStatus destination, OpenedSource? opened, bool sourceIsReadOnly)
    {
        string folder = Path.GetDirectoryName(destinationFull) ?? ".";
        ReplacementFiles.RemoveAbandoned(folder, _options.CleanedFolders);
        string replacement = ReplacementFiles.NewPath(folder);
        bool gone = false;
        try
        {
            return ReplaceThrough(replacement, pair, sourceFull, destinationFull, destination, opened, sourceIsReadOnly, out gone);
        }
        finally
        {
            if (gone)
            {
                ReplacementFiles.Finished(); // else this process's record keeps the folder for the next build's look
            }
        }
    }

    /// <summary>The replacement written at <paramref name="replacement"/> and renamed over the destination; <paramref name="gone"/> once nothing is left under that name.</summary>
    private PairOutcome ReplaceThrough(string replacement, CopyPair pair, string sourceFull, string destinationFull, PathStatus destination, OpenedSource? opened, bool sourceIsReadOnly, out bool gone)
    {
        gone = false;
        bool announced = false;
        PairOutcome outcome;
        try
        {
            PairOutcome? linked = _options.UseHardLinks || _options.UseSymbolicLinks ? LinkOrCloneInstead(sourceFull, destinationFull, replacement) : null;
            if (linked is null && _options.ErrorIfLinkFails)
            {
                // MSBuild's Copy has deleted the destination by now; so is it here, the error being the same.
                gone = true; // nothing was made under the temporary name
                DestinationRules.Prepare(_log, _options, pair.DestinationSpec, destinationFull, destination);
                _log.LogErrorWithCodeFromResources(CopyMessages.LinkFailed, sourceFull, destinationFull);
                return PairOutcome.Failed;
            }

            announced = linked is null; // CopyContent says "Copying file" first
            outcome = linked ?? CopyContent(sourceFull, destinationFull, opened, destinationAbsent: true, writeTo: replacement);
            if (sourceIsReadOnly)
            {
                ReadOnlyRules.MakeWritable(replacement);
            }

            AtomicReplaceHooks.Reached(AtomicReplaceStep.Written, replacement);
            PlatformFactory.Current.ReplaceWith(replacement, destinationFull);
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            // The new file could not be made beside the old one (a folder that may not be written while the file may,
            // an unreadable source, a full disk), or the rename was refused (on Windows, a reader holding the file
            // without FILE_SHARE_DELETE; a file mounted over): the destination is replaced as MSBuild's Copy replaces
            // it, and succeeds or fails where that succeeds or fails, with its error.
            gone = ReplacementFiles.RemoveQuietly(replacement);
            return ReplaceInPlace(pair, sourceFull, destinationFull, destination, sourceIsReadOnly, announced);
        }
        catch
        {
            gone = ReplacementFiles.RemoveQuietly(replacement);
            throw;
        }

        // rename(2) between two links of one file does nothing and succeeds: the temporary link would stay.
        gone = outcome.Result != PairResult.HardLinked || ReplacementFiles.RemoveQuietly(replacement);
        return outcome;
    }

    /// <summary>MSBuild's way, after the atomic way failed: delete, then write at the destination itself ("Copying file" not said twice).</summary>
    private PairOutcome ReplaceInPlace(CopyPair pair, string sourceFull, string destinationFull, PathStatus destination, bool sourceIsReadOnly, bool announced)
    {
        DestinationRules.Prepare(_log, _options, pair.DestinationSpec, destinationFull, destination);
        PairOutcome? linked = _options.UseHardLinks || _options.UseSymbolicLinks ? LinkOrCloneInstead(sourceFull, destinationFull) : null;
        if (linked is null && _options.ErrorIfLinkFails)
        {
            _log.LogErrorWithCodeFromResources(CopyMessages.LinkFailed, sourceFull, destinationFull);
            return PairOutcome.Failed;
        }

        PairOutcome outcome = linked ?? CopyContent(sourceFull, destinationFull, null, destinationAbsent: false, announce: !announced);
        if (sourceIsReadOnly)
        {
            ReadOnlyRules.MakeWritable(destinationFull);
        }

        return outcome;
    }

    private static PathStatus Writable(PathStatus status) => new(status.Exists, status.IsDirectory)
    {
        IsLink = status.IsLink,
        LinkCount = status.LinkCount,
        Device = status.Device,
        Inode = status.Inode,
        IsReadOnly = false,
        FullPath = status.FullPath,
    };
}
