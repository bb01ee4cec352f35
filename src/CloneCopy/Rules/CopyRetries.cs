using System;
using System.IO;
using System.Security;
using System.Threading;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// MSBuild's retry rules for one pair: which failures are worth another attempt, and the messages that go
/// with them. Only exceptions retry. Arguments, unsupported paths, over-long paths and invalid names never;
/// "access denied" not on Windows, nor on Unix under an MSBuild before 18.8 or with change wave 18.7 off
/// (<see cref="RunningMSBuild.RetriesAccessDenied"/>), unless MSBUILDALWAYSRETRY asks; a
/// DestinationFolder with a file in its place never. Each retry is warning MSB3026; when they run out,
/// MSB3027, and the failure goes on to be reported as MSB3021. Under MSBUILDALWAYSRETRY every failed
/// attempt also logs MSB3894 (and MSB3895 for access denied), as MSBuild's Copy does.
/// </summary>
internal sealed class CopyRetries
{
    private const int AccessDenied = unchecked((int)0x80070005);
    private const int InvalidName = unchecked((int)0x8007007B);

    private readonly TaskLoggingHelper _log;
    private readonly CopyOptions _options;
    private readonly CancellationToken _cancellation;

    public CopyRetries(TaskLoggingHelper log, CopyOptions options, CancellationToken cancellation)
    {
        _log = log;
        _options = options;
        _cancellation = cancellation;
    }

    /// <summary>The attempts at one pair (no delegate: this runs once per file).</summary>
    /// <param name="knownDestination">What the up-to-date test saw of the destination, for the first attempt only (retries look again).</param>
    public PairOutcome Run(PairAttempt attempt, CopyPair pair, string sourceFull, string destinationFull, Platform.PathStatus? knownDestination = null)
    {
        for (int retries = 0; ; )
        {
            try
            {
                return attempt.Run(pair, sourceFull, destinationFull, retries == 0 ? knownDestination : null);
            }
            catch (Exception e) when (IsIoRelated(e) && !IsFinal(e, pair))
            {
                if (retries < _options.Retries)
                {
                    retries++;
                    _log.LogWarningWithCodeFromResources(CopyMessages.Retrying, pair.SourceSpec, pair.DestinationSpec, retries, _options.RetryDelayMilliseconds, e.Message, _options.LockedFiles.For(destinationFull));
                    if (_cancellation.WaitHandle.WaitOne(_options.RetryDelayMilliseconds))
                    {
                        return PairOutcome.Failed;
                    }

                    continue;
                }

                if (_options.Retries > 0)
                {
                    _log.LogErrorWithCodeFromResources(CopyMessages.ExceededRetries, pair.SourceSpec, pair.DestinationSpec, _options.Retries, _options.LockedFiles.For(destinationFull));
                }

                throw;
            }
        }
    }

    /// <summary>The exceptions MSBuild treats as I/O failures (its ExceptionHandling.IsIoRelatedException).</summary>
    public static bool IsIoRelated(Exception e) =>
        e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException or SecurityException;

    /// <summary>True when retrying cannot help; logs MSBUILDALWAYSRETRY's diagnostics on the way, as MSBuild does.</summary>
    internal bool IsFinal(Exception e, CopyPair pair)
    {
        if (e is ArgumentException or NotSupportedException or PathTooLongException)
        {
            return true;
        }

        if (e is not (UnauthorizedAccessException or IOException))
        {
            return false;
        }

        int result = e.HResult;
        AlwaysRetryDiagnostic(CopyMessages.IOException, e.ToString(), pair.SourceSpec, pair.DestinationSpec, result);
        if (result == AccessDenied)
        {
            bool retriedHere = _options.MSBuild.RetriesAccessDenied(MSBuildPlatformRules.IsWindows);
            if (!_options.EscapeHatches.AlwaysRetry && !retriedHere)
            {
                return true;
            }

            AlwaysRetryDiagnostic(CopyMessages.RetryingOnAccessDenied);
        }
        else if (result == InvalidName)
        {
            return true;
        }

        // DestinationFolder cannot be created because a file is in its place: no retry will help.
        return e is not UnauthorizedAccessException && _options.DestinationFolder is not null && File.Exists(_options.Environment.FullPathOf(_options.DestinationFolder));
    }

    private void AlwaysRetryDiagnostic(string message, params object[] arguments)
    {
        if (_options.EscapeHatches.AlwaysRetry)
        {
            _log.LogWarningWithCodeFromResources(message, arguments);
        }
    }
}
