using System.IO;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// One attempt at one pair, in MSBuild's order: a directory in the destination's place (MSB3024), a
/// directory or nothing as the source (MSB3025, MSB3030), the destination's directory, read-only handling
/// and delete-before-write, links when asked (MSB3893 when one was required), then the transfer engine,
/// then the read-only rule for the result. Returns a failure for conditions retrying cannot fix; throws for
/// I/O errors, which <see cref="CopyRetries"/> may retry.
/// </summary>
internal sealed partial class PairAttempt
{
    private readonly TaskLoggingHelper _log;
    private readonly CopyOptions _options;
    private readonly IFileTransfer _transfer;

    /// <summary>The transfer, where it can open a source before the rules look at it (Linux); null elsewhere and for test fakes.</summary>
    private readonly IOpenedSourceTransfer? _openFirst;
    private readonly DirectoryCreator _directories;
    private readonly CancellationToken _cancellation;

    /// <summary>The per-file "cloned" line's format, read once per call.</summary>
    private string? _clonedFormat;

    /// <summary>False in a build logged at normal verbosity: then the per-file detail is not even formatted.</summary>
    private readonly bool _logsLowImportance;

    public PairAttempt(TaskLoggingHelper log, CopyOptions options, IFileTransfer transfer, CancellationToken cancellation)
    {
        _log = log;
        _options = options;
        _transfer = transfer;
        _openFirst = transfer as IOpenedSourceTransfer;
        _directories = new DirectoryCreator(log);
        _cancellation = cancellation;
        _logsLowImportance = log.LogsMessagesOfImportance(MessageImportance.Low);
    }

    /// <param name="knownDestination">What the up-to-date test already saw at the destination, through the same path; null to look.</param>
    public PairOutcome Run(CopyPair pair, string sourceFull, string destinationFull, PathStatus? knownDestination = null)
    {
        _cancellation.ThrowIfCancellationRequested();
        if (knownDestination is null && TryCopyToNewFile(pair, sourceFull, destinationFull) is PairOutcome copiedToNew)
        {
            return copiedToNew;
        }

        // Looked at as MSBuild's FileState looks (backslashes read as '/' on Unix); copied by the path as given.
        PathStatus destination = knownDestination ?? PlatformFactory.Current.Probe(FileStatePath.Of(destinationFull));
        if (destination.IsDirectory)
        {
            _log.LogErrorWithCodeFromResources(CopyMessages.DestinationIsDirectory, pair.SourceSpec, pair.DestinationSpec);
            return PairOutcome.Failed;
        }

        string sourceAsSeen = FileStatePath.Of(sourceFull);
        using OpenedSource? opened = OpenSourceFirst(sourceFull, sourceAsSeen);
        PathStatus source = opened?.Status ?? TrailingSeparatorRule.AsMSBuildSeesSource(sourceAsSeen, PlatformFactory.Current.Probe(sourceAsSeen));
        if (source.IsDirectory)
        {
            _log.LogErrorWithCodeFromResources(CopyMessages.SourceIsDirectory, pair.SourceSpec);
            return PairOutcome.Failed;
        }

        if (!source.Exists)
        {
            _log.LogErrorWithCodeFromResources(CopyMessages.SourceFileNotFound, pair.SourceSpec);
            return PairOutcome.Failed;
        }

        if (destination.Exists && PlatformFactory.Current.DestinationIsTheSource(sourceFull, source, destinationFull, destination))
        {
            // The same file through a symlinked directory, a bind mount or a link: MSBuild's Copy would
            // delete it and then fail to copy it. There is nothing to copy.
            TaskLog.Message(_log, MessageImportance.Low, CloneCopyText.Format(CloneCopyText.SameFileByAnotherPath, destinationFull, sourceFull));
            return new PairOutcome(PairResult.SamePath);
        }

        _directories.Ensure(Path.GetDirectoryName(pair.DestinationSpec) ?? string.Empty, Path.GetDirectoryName(destinationFull));
        if (destination.Exists && _options.AtomicReplace && ReplacesAtomically(pair, destinationFull, ref destination))
        {
            return ReplaceAtomically(pair, sourceFull, destinationFull, destination, opened, ReadOnlyRules.IsReadOnly(source, sourceAsSeen));
        }

        if (destination.Exists)
        {
            DestinationRules.Prepare(_log, _options, pair.DestinationSpec, destinationFull, destination);
        }

        // Read before anything is written: a hard link made below shares the source's attributes.
        bool sourceIsReadOnly = ReadOnlyRules.IsReadOnly(source, sourceAsSeen);
        PairOutcome? linked = _options.UseHardLinks || _options.UseSymbolicLinks ? LinkOrCloneInstead(sourceFull, destinationFull) : null;
        if (linked is null && _options.ErrorIfLinkFails)
        {
            _log.LogErrorWithCodeFromResources(CopyMessages.LinkFailed, sourceFull, destinationFull);
            return PairOutcome.Failed;
        }

        PairOutcome outcome = linked ?? CopyContent(sourceFull, destinationFull, opened, destinationAbsent: !destination.Exists);
        if (sourceIsReadOnly)
        {
            // File.Copy carries the source's read-only bit over; MSBuild's Copy leaves the destination writable.
            ReadOnlyRules.MakeWritable(destinationFull);
        }

        return outcome;
    }

    /// <summary>
    /// The commonest pair, decided with no look at the destination: where its folder is known to be there (an earlier
    /// file of this call went to it), the destination is made as a new file (O_EXCL, which succeeds only where nothing
    /// is there) and the source opened. Then MSBuild's rules have nothing to say that the two calls did not answer: no
    /// folder or file in the destination's place (MSB3024, nothing to delete, not the source by another path), a
    /// source that is there and no folder (MSB3025, MSB3030), its folder there. Null, with nothing left behind, where
    /// anything else holds: the rules then run as always, looking at the destination first.
    /// </summary>
    private PairOutcome? TryCopyToNewFile(CopyPair pair, string sourceFull, string destinationFull)
    {
        if (_openFirst is null || !CanOpenFirst(sourceFull, FileStatePath.Of(sourceFull)) || !ReferenceEquals(FileStatePath.Of(destinationFull), destinationFull)
            || !_directories.IsKnownFolderOf(pair.DestinationSpec, destinationFull))
        {
            return null;
        }

        using OpenedSource? opened = _openFirst.TryCreateDestinationThenOpenSource(destinationFull, sourceFull);
        if (opened is null)
        {
            return null;
        }

        bool sourceIsReadOnly = ReadOnlyRules.IsReadOnly(opened.Status, sourceFull);
        PairOutcome outcome = CopyContent(sourceFull, destinationFull, opened, destinationAbsent: true);
        if (sourceIsReadOnly)
        {
            ReadOnlyRules.MakeWritable(destinationFull);
        }

        return outcome;
    }

    private bool CanOpenFirst(string sourceFull, string sourceAsSeen) =>
        !_options.UseHardLinks && !_options.UseSymbolicLinks && ReferenceEquals(sourceFull, sourceAsSeen)
            && sourceFull.Length > 1 && sourceFull[sourceFull.Length - 1] != '/';

    /// <summary>
    /// The source opened before the rules look at it, where the open answers what the probe would (Linux): one
    /// look instead of a probe by path and then an open. Not where a link may be made instead of a copy (the
    /// source must then not be opened at all: a named pipe would be read by nobody), nor for a path MSBuild looks
    /// at through another spelling (backslashes, a trailing separator); null there, and wherever the open fails.
    /// </summary>
    private OpenedSource? OpenSourceFirst(string sourceFull, string sourceAsSeen) =>
        _openFirst is not null && CanOpenFirst(sourceFull, sourceAsSeen) ? _openFirst.TryOpenSource(sourceFull) : null;

    /// <param name="writeTo">Where the bytes go when that is not the destination itself: CloneCopyAtomicReplace's replacement file.</param>
    /// <param name="announce">False where the "Copying file" line was already said for this attempt.</param>
    private PairOutcome CopyContent(string sourceFull, string destinationFull, OpenedSource? opened, bool destinationAbsent, string? writeTo = null, bool announce = true)
    {
        if (announce)
        {
            _log.LogCopyMessage(MessageImportance.Normal, CopyMessages.FileComment, sourceFull, destinationFull);
        }

        TransferResult transfer = opened is not null
            ? _openFirst!.Transfer(opened, writeTo ?? destinationFull, destinationAbsent, _cancellation)
            : _transfer.Transfer(sourceFull, writeTo ?? destinationFull, _cancellation);
        if (_logsLowImportance)
        {
            // The commonest line's text looked up once per call, not once per file (a resource lookup each time).
            TaskLog.Message(_log, MessageImportance.Low, transfer.Method == TransferMethod.Cloned
                ? CloneCopyText.Format(_clonedFormat ??= CloneCopyText.OutcomeCloned, destinationFull, transfer.Bytes)
                : OutcomeText.Describe(transfer, destinationFull));
        }

        return new PairOutcome(PairResult.Transferred, transfer);
    }

    /// <summary>A link as asked, or a clone in its place (CloneCopyClonesInsteadOfLinks); null when neither was made.</summary>
    /// <param name="writeTo">Where the link or clone is made when that is not the destination itself (CloneCopyAtomicReplace).</param>
    private PairOutcome? LinkOrCloneInstead(string sourceFull, string destinationFull, string? writeTo = null)
    {
        if (_options.ClonesInsteadOfLinks && TryCloneInsteadOfLink(sourceFull, destinationFull, writeTo ?? destinationFull, out TransferResult clone))
        {
            return new PairOutcome(PairResult.ClonedInsteadOfLink, clone);
        }

        return TryLink(sourceFull, destinationFull, writeTo ?? destinationFull) is PairResult link ? new PairOutcome(link) : null;
    }

    /// <summary>
    /// CloneCopyClonesInsteadOfLinks: the disk savings of a link without its shared writes. Where no clone is
    /// possible, nothing has happened and MSBuild's link rules run as they would have.
    /// </summary>
    private bool TryCloneInsteadOfLink(string sourceFull, string destinationFull, string writeTo, out TransferResult clone)
    {
        clone = default;
        if (_transfer is not ICloneOnlyTransfer cloner || !cloner.TryCloneOnly(sourceFull, writeTo, _cancellation, out clone))
        {
            return false;
        }

        _log.LogCopyMessage(MessageImportance.Normal, CopyMessages.FileComment, sourceFull, destinationFull);
        TaskLog.Message(_log, MessageImportance.Low, CloneCopyText.Format(_options.UseHardLinks ? CloneCopyText.ClonedInPlaceOfHardLink : CloneCopyText.ClonedInPlaceOfSymbolicLink, destinationFull, clone.Bytes));
        return true;
    }

    private PairResult? TryLink(string sourceFull, string destinationFull, string writeTo)
    {
        if (_options.UseHardLinks)
        {
            _log.LogCopyMessage(MessageImportance.Normal, CopyMessages.HardLinkComment, sourceFull, destinationFull);
            if (PlatformFactory.Current.TryCreateHardLink(sourceFull, writeTo, out string error))
            {
                return PairResult.HardLinked;
            }

            _log.LogCopyMessage(MessageImportance.Normal, _options.UseSymbolicLinks ? CopyMessages.RetryingAsSymbolicLink : CopyMessages.RetryingAsFileCopy, sourceFull, destinationFull, error);
        }

        if (_options.UseSymbolicLinks)
        {
            _log.LogCopyMessage(MessageImportance.Normal, CopyMessages.SymbolicLinkComment, sourceFull, destinationFull);
            if (PlatformFactory.Current.TryCreateSymbolicLink(sourceFull, writeTo, out string error))
            {
                return PairResult.SymbolicLinked;
            }

            if (!MSBuildPlatformRules.IsWindows)
            {
                error = _log.FormatResourceString(CopyMessages.NonWindowsLinkErrorMessage, "symlink()", error);
            }

            _log.LogCopyMessage(MessageImportance.Normal, CopyMessages.RetryingAsFileCopy, sourceFull, destinationFull, error);
        }

        return null;
    }
}
