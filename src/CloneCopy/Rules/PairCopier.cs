using System;
using System.IO;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// MSBuild's per-file decisions for one pair, before any attempt: up to date (SkipUnchangedFiles), the same
/// path, FailIfNotIncremental; then the attempts with MSBuild's retries; an I/O failure that ends them is
/// MSB3021, with the text of the exception .NET threw. It speaks MSBuild; the engine does the bytes.
/// </summary>
internal sealed class PairCopier
{
    private readonly TaskLoggingHelper _log;
    private readonly CopyOptions _options;
    private readonly CopyRetries _retries;
    private readonly PairAttempt _attempt;

    public PairCopier(TaskLoggingHelper log, CopyOptions options, IFileTransfer transfer, CancellationToken cancellation)
    {
        _log = log;
        _options = options;
        _retries = new CopyRetries(log, options, cancellation);
        _attempt = new PairAttempt(log, options, transfer, cancellation);
    }

    public PairOutcome Copy(CopyPair pair)
    {
        string sourceSpec = pair.SourceSpec;
        string destinationSpec = pair.DestinationSpec;
        try
        {
            // MSBuild's order: the up-to-date test first, on the spec joined to the project directory (an invalid
            // spec throws there, as in MSBuild).
            Looked destinationLooked = default;
            if (_options.SkipUnchangedFiles && IsUpToDate(_options.Environment.ForFileInfo(sourceSpec), _options.Environment.ForFileInfo(destinationSpec), out destinationLooked))
            {
                _log.LogCopyMessage(MessageImportance.Low, CopyMessages.DidNotCopyBecauseOfFileMatch, sourceSpec, destinationSpec, "SkipUnchangedFiles", "true");
                return new PairOutcome(PairResult.UpToDate);
            }

            // Computed once by the scheduler; recomputed here only to throw the proper error for a bad path.
            string sourceFull = pair.SourceFullPath ?? _options.Environment.FullPathOf(sourceSpec);
            string destinationFull = pair.DestinationFullPath ?? _options.Environment.FullPathOf(destinationSpec);

            if (string.Equals(sourceFull, destinationFull, MSBuildPlatformRules.PathComparison))
            {
                return new PairOutcome(PairResult.SamePath);
            }

            if (_options.FailIfNotIncremental)
            {
                _log.LogError(_log.GetResourceMessage(CopyMessages.FileComment), sourceSpec, destinationSpec);
                return PairOutcome.Failed;
            }

            // What the up-to-date test saw of the destination is what the first attempt would see (MSBuild's
            // Copy keeps it too, in its FileState), when both looked through the same path.
            PathStatus? knownDestination = destinationLooked.Path is not null && string.Equals(destinationLooked.Path, FileStatePath.Of(destinationFull), StringComparison.Ordinal)
                ? destinationLooked.Status
                : null;
            return _retries.Run(_attempt, pair, sourceFull, destinationFull, knownDestination);
        }
        catch (OperationCanceledException)
        {
            return PairOutcome.Failed;
        }
        catch (Exception e) when (CopyRetries.IsIoRelated(e))
        {
            _log.LogErrorWithCodeFromResources(CopyMessages.Error, sourceSpec, destinationSpec, e.Message);
            return PairOutcome.Failed;
        }
    }

    /// <summary>
    /// MSBuild's size-and-time test, in its order: the destination must be a file; then the last-write times
    /// (a directory's own time for a directory, 1601-01-01 for nothing); then the lengths. Asking the length of
    /// a source that is a directory (or nothing) throws "Could not find file", which MSBuild reports as MSB3021:
    /// so a folder given as a source whose time a destination file happens to share fails that way here too.
    /// Where the platform reads a path's size and time in one call (<see cref="IFileStateReader"/>), nothing or a
    /// regular file is answered so, and what was seen of the destination is kept for the attempt.
    /// </summary>
    private static bool IsUpToDate(string sourcePath, string destinationPath, out Looked destinationLooked)
    {
        // MSBuild's FileState reads backslashes as '/' on Unix (see FileStatePath).
        sourcePath = FileStatePath.Of(sourcePath);
        destinationPath = FileStatePath.Of(destinationPath);
        destinationLooked = default;
        if (PlatformFactory.Current is IFileStateReader reader && reader.TryReadFileState(destinationPath, out FileState destinationState))
        {
            destinationLooked = new Looked(destinationPath, destinationState.Status);
            if (!destinationState.Exists)
            {
                return false;
            }

            if (reader.TryReadFileState(sourcePath, out FileState sourceState) && sourceState.Exists)
            {
                return sourceState.LastWriteTicks == destinationState.LastWriteTicks && sourceState.Length == destinationState.Length;
            }

            var other = new FileInfo(sourcePath);
            DateTime otherTime = other.Exists ? other.LastWriteTimeUtc : Directory.GetLastWriteTimeUtc(sourcePath);
            return otherTime.Ticks == destinationState.LastWriteTicks && other.Length == destinationState.Length;
        }

        var destination = new FileInfo(destinationPath);
        if (!destination.Exists)
        {
            return false;
        }

        var source = new FileInfo(sourcePath);
        DateTime sourceTime = source.Exists ? source.LastWriteTimeUtc : Directory.GetLastWriteTimeUtc(sourcePath);
        return sourceTime == destination.LastWriteTimeUtc && source.Length == destination.Length;
    }

    /// <summary>A path as the up-to-date test looked at it, and what it saw there.</summary>
    private readonly struct Looked
    {
        public Looked(string path, PathStatus status)
        {
            Path = path;
            Status = status;
        }

        public string? Path { get; }

        public PathStatus Status { get; }
    }
}
