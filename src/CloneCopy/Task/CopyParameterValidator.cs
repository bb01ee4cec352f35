using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>Checks the parameters in MSBuild's order and logs the first problem with MSBuild's code.</summary>
internal static class CopyParameterValidator
{
    public static bool Validate(TaskLoggingHelper log, Copy task)
    {
        if (task.Retries < 0)
        {
            return Fail(log, CopyMessages.RetryCountInvalid, CopyMessages.RetryCountInvalidText(task.Retries));
        }

        if (task.RetryDelayMilliseconds < 0)
        {
            return Fail(log, CopyMessages.RetryDelayInvalid, CopyMessages.RetryDelayInvalidText(task.RetryDelayMilliseconds));
        }

        if (task.DestinationFiles is null && task.DestinationFolder is null)
        {
            return Fail(log, CopyMessages.NoDestination, CopyMessages.NoDestinationText);
        }

        if (task.DestinationFiles is not null && task.DestinationFolder is not null)
        {
            return Fail(log, CopyMessages.BothDestinations, CopyMessages.BothDestinationsText);
        }

        if (task.SourceFolders is { Length: > 0 } && task.DestinationFiles is not null)
        {
            return Fail(log, CopyMessages.SourceFoldersWithDestinationFiles, CopyMessages.SourceFoldersWithDestinationFilesText);
        }

        int sources = task.SourceFiles?.Length ?? 0;
        if (task.DestinationFiles is not null && task.DestinationFiles.Length != sources)
        {
            return Fail(log, CopyMessages.CountMismatch, CopyMessages.CountMismatchText(task.DestinationFiles.Length, sources));
        }

        if (task.ErrorIfLinkFails && !task.UseHardlinksIfPossible && !task.UseSymboliclinksIfPossible)
        {
            return Fail(log, CopyMessages.ErrorIfLinkFailsWithoutLink, CopyMessages.ErrorIfLinkFailsWithoutLinkText);
        }

        return true;
    }

    private static bool Fail(TaskLoggingHelper log, string code, string message)
    {
        TaskLog.Error(log, code, message);
        return false;
    }
}
