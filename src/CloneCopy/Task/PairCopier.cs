using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Security;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// MSBuild's per-file rules for one pair: up-to-date check, same-path check, FailIfNotIncremental, then
/// attempts with retries (checks, directory creation, read-only handling, delete-before-write, links,
/// and finally the transfer engine). It speaks MSBuild; the engine does the bytes.
/// </summary>
internal sealed class PairCopier
{
    private static readonly bool IsWindows = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

    private readonly TaskLoggingHelper _log;
    private readonly CopyOptions _options;
    private readonly IFileTransfer _transfer;
    private readonly DirectoryCreator _directories;
    private readonly CancellationToken _cancellation;

    /// <summary>False in a build logged at normal verbosity: then the per-file detail is not even formatted.</summary>
    private readonly bool _logsLowImportance;

    public PairCopier(TaskLoggingHelper log, CopyOptions options, IFileTransfer transfer, CancellationToken cancellation)
    {
        _log = log;
        _options = options;
        _transfer = transfer;
        _directories = new DirectoryCreator(log);
        _cancellation = cancellation;
        _logsLowImportance = log.LogsMessagesOfImportance(MessageImportance.Low);
    }

    public PairOutcome Copy(CopyPair pair)
    {
        string sourceSpec = pair.SourceSpec;
        string destinationSpec = pair.DestinationSpec;
        try
        {
            if (_options.SkipUnchangedFiles && IsUpToDate(sourceSpec, destinationSpec))
            {
                TaskLog.Message(_log, MessageImportance.Low, CopyMessages.UpToDateText(sourceSpec, destinationSpec));
                return new PairOutcome(PairResult.UpToDate);
            }

            // Computed once by the scheduler; recomputed here only to throw the proper error for a bad path.
            string sourceFull = pair.SourceFullPath ?? Path.GetFullPath(sourceSpec);
            string destinationFull = pair.DestinationFullPath ?? Path.GetFullPath(destinationSpec);
            if (string.Equals(sourceFull, destinationFull, PathComparison.Comparison))
            {
                return new PairOutcome(PairResult.SamePath);
            }

            if (_options.FailIfNotIncremental)
            {
                TaskLog.Error(_log, null, CopyMessages.CopyingText(sourceSpec, destinationSpec));
                return PairOutcome.Failed;
            }

            return CopyWithRetries(pair, sourceFull, destinationFull);
        }
        catch (OperationCanceledException)
        {
            return PairOutcome.Failed;
        }
        catch (Exception e) when (IsIoRelated(e))
        {
            TaskLog.Error(_log, CopyMessages.CopyFailed, CopyMessages.CopyFailedText(sourceSpec, destinationSpec, e.Message));
            return PairOutcome.Failed;
        }
    }

    private PairOutcome CopyWithRetries(CopyPair pair, string sourceFull, string destinationFull)
    {
        for (int attempt = 0; ; attempt++)
        {
            try
            {
                return Attempt(pair, sourceFull, destinationFull);
            }
            catch (Exception e) when (IsRetriable(e))
            {
                if (attempt < _options.Retries)
                {
                    TaskLog.Warning(_log, CopyMessages.RetryingAfterFailure, CopyMessages.RetryingText(pair.SourceSpec, pair.DestinationSpec, attempt + 1, _options.RetryDelayMilliseconds, e.Message));
                    if (_cancellation.WaitHandle.WaitOne(_options.RetryDelayMilliseconds))
                    {
                        return PairOutcome.Failed;
                    }

                    continue;
                }

                if (_options.Retries > 0)
                {
                    TaskLog.Error(_log, CopyMessages.RetriesExhausted, CopyMessages.RetriesExhaustedText(pair.SourceSpec, pair.DestinationSpec, _options.Retries));
                }

                throw;
            }
        }
    }

    /// <summary>One attempt. Returns a failure for conditions retrying cannot fix; throws for I/O errors.</summary>
    private PairOutcome Attempt(CopyPair pair, string sourceFull, string destinationFull)
    {
        _cancellation.ThrowIfCancellationRequested();

        PathStatus destination = PathProbe.Get(destinationFull);
        if (destination.IsDirectory)
        {
            TaskLog.Error(_log, CopyMessages.DestinationIsDirectory, CopyMessages.DestinationIsDirectoryText(pair.SourceSpec, pair.DestinationSpec));
            return PairOutcome.Failed;
        }

        PathStatus source = PathProbe.Get(sourceFull);
        if (!source.Exists || source.IsDirectory)
        {
            if (source.IsDirectory)
            {
                TaskLog.Error(_log, CopyMessages.SourceIsDirectory, CopyMessages.SourceIsDirectoryText(pair.SourceSpec));
            }
            else
            {
                TaskLog.Error(_log, CopyMessages.SourceNotFound, CopyMessages.SourceNotFoundText(pair.SourceSpec));
            }

            return PairOutcome.Failed;
        }

        if (destination.Exists && FileIdentity.DestinationIsTheSource(sourceFull, source, destinationFull, destination))
        {
            // The same file through a symlinked directory, a bind mount or a link: MSBuild's Copy would
            // delete it and then fail to copy it. There is nothing to copy.
            TaskLog.Message(_log, MessageImportance.Low, $"CloneCopy: \"{destinationFull}\" is \"{sourceFull}\" by another path; nothing to copy.");
            return new PairOutcome(PairResult.SamePath);
        }

        _directories.Ensure(Path.GetDirectoryName(pair.DestinationSpec) ?? string.Empty, Path.GetDirectoryName(destinationFull)!);
        if (destination.Exists)
        {
            PrepareDestination(pair.DestinationSpec, destinationFull, destination);
        }

        if (_options.UseHardLinks || _options.UseSymbolicLinks)
        {
            PairResult? linked = TryLink(sourceFull, destinationFull);
            if (linked is not null)
            {
                return new PairOutcome(linked.Value);
            }

            if (_options.ErrorIfLinkFails)
            {
                TaskLog.Error(_log, CopyMessages.LinkFailedAndRequired, CopyMessages.LinkFailedAndRequiredText(sourceFull, destinationFull));
                return PairOutcome.Failed;
            }
        }

        TaskLog.Message(_log, MessageImportance.Normal, CopyMessages.CopyingText(sourceFull, destinationFull));
        TransferResult transfer = _transfer.Transfer(sourceFull, destinationFull, _cancellation);
        if (_logsLowImportance)
        {
            TaskLog.Message(_log, MessageImportance.Low, OutcomeText.Describe(transfer, destinationFull));
        }
        return new PairOutcome(PairResult.Transferred, transfer);
    }

    /// <summary>
    /// Clears read-only when asked, then deletes an existing writable destination, so the write creates a
    /// new file instead of going through a hard link (into, say, the NuGet cache) or a symbolic link.
    /// </summary>
    private void PrepareDestination(string destinationSpec, string destinationFull, PathStatus status)
    {
        var destination = new FileInfo(destinationFull);
        if (!destination.Exists)
        {
            // Only a dangling link gets here: remove the link, or the write would create the file it points to.
            if (!_options.EscapeHatches.CopyWithoutDelete)
            {
                File.Delete(destinationFull);
            }

            return;
        }

        bool readOnly = destination.IsReadOnly;
        if (readOnly && _options.OverwriteReadOnlyFiles)
        {
            TaskLog.Message(_log, MessageImportance.Low, CopyMessages.RemovingReadOnlyText(destinationSpec));
            File.SetAttributes(destinationFull, destination.Attributes & ~FileAttributes.ReadOnly);
            readOnly = false;
        }

        if (_options.EscapeHatches.CopyWithoutDelete)
        {
            return; // the user asked for MSBuild's old write-in-place behaviour
        }

        // A read-only destination is normally written in place (MSBuild keeps it); but if it is a hard or
        // symbolic link, writing in place would change another file (the NuGet cache): replace it instead.
        if (!readOnly || FileIdentity.IsSharedEntry(status))
        {
            File.Delete(destinationFull);
        }
    }

    private PairResult? TryLink(string sourceFull, string destinationFull)
    {
        if (_options.UseHardLinks)
        {
            TaskLog.Message(_log, MessageImportance.Normal, CopyMessages.CreatingHardLinkText(sourceFull, destinationFull));
            if (FileLinks.TryCreateHardLink(sourceFull, destinationFull, out string error))
            {
                return PairResult.HardLinked;
            }

            string fallback = _options.UseSymbolicLinks
                ? CopyMessages.HardLinkFellBackToSymbolicText(sourceFull, destinationFull, error)
                : CopyMessages.LinkFellBackToCopyText(sourceFull, destinationFull, error);
            TaskLog.Message(_log, MessageImportance.Normal, fallback);
        }

        if (_options.UseSymbolicLinks)
        {
            TaskLog.Message(_log, MessageImportance.Normal, CopyMessages.CreatingSymbolicLinkText(sourceFull, destinationFull));
            if (FileLinks.TryCreateSymbolicLink(sourceFull, destinationFull, out string error))
            {
                return PairResult.SymbolicLinked;
            }

            TaskLog.Message(_log, MessageImportance.Normal, CopyMessages.LinkFellBackToCopyText(sourceFull, destinationFull, error));
        }

        return null;
    }

    private bool IsUpToDate(string sourceSpec, string destinationSpec)
    {
        var source = new FileInfo(sourceSpec);
        var destination = new FileInfo(destinationSpec);
        return source.Exists && destination.Exists
            && source.Length == destination.Length
            && source.LastWriteTimeUtc == destination.LastWriteTimeUtc;
    }

    /// <summary>Which failures earn a retry: I/O failures, except those that retrying cannot change.</summary>
    private bool IsRetriable(Exception e)
    {
        if (e is PathTooLongException or ArgumentException or NotSupportedException or OperationCanceledException)
        {
            return false;
        }

        if (e is not (IOException or UnauthorizedAccessException))
        {
            return false;
        }

        // DestinationFolder cannot be created because a file is in its place: no retry will help.
        if (_options.DestinationFolder is not null && File.Exists(_options.DestinationFolder))
        {
            return false;
        }

        // On Windows, access denied is final unless MSBUILDALWAYSRETRY asks otherwise (MSBuild's rule).
        if (IsWindows && e is UnauthorizedAccessException && !_options.EscapeHatches.AlwaysRetry)
        {
            return false;
        }

        return true;
    }

    private static bool IsIoRelated(Exception e) =>
        e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException or SecurityException;
}
