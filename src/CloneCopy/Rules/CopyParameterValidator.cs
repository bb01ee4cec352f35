using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>Checks the parameters in MSBuild's order and logs the first problem with MSBuild's message.</summary>
internal static class CopyParameterValidator
{
    public static bool Validate(TaskLoggingHelper log, Copy task)
    {
        if (task.Retries < 0)
        {
            return Fail(log, CopyMessages.InvalidRetryCount, task.Retries);
        }

        if (task.RetryDelayMilliseconds < 0)
        {
            return Fail(log, CopyMessages.InvalidRetryDelay, task.RetryDelayMilliseconds);
        }

        if (task.DestinationFiles is null && task.DestinationFolder is null)
        {
            return Fail(log, CopyMessages.NeedsDestination, nameof(task.DestinationFiles), nameof(task.DestinationFolder));
        }

        if (task.DestinationFiles is not null && task.DestinationFolder is not null)
        {
            return Fail(log, CopyMessages.ExactlyOneTypeOfDestination, nameof(task.DestinationFiles), nameof(task.DestinationFolder));
        }

        if (task.SourceFolders is { Length: > 0 } && task.DestinationFiles is not null)
        {
            return Fail(log, CopyMessages.IncompatibleParameters, nameof(task.SourceFolders), nameof(task.DestinationFiles));
        }

        int sources = task.SourceFiles?.Length ?? 0;
        if (task.DestinationFiles is not null && task.DestinationFiles.Length != sources)
        {
            return Fail(log, CopyMessages.TwoVectorsMustHaveSameLength, task.DestinationFiles.Length, sources, nameof(task.DestinationFiles), nameof(task.SourceFiles));
        }

        if (task.ErrorIfLinkFails && !task.UseHardlinksIfPossible && !task.UseSymboliclinksIfPossible)
        {
            return Fail(log, CopyMessages.ErrorIfLinkFailsSetWithoutLinkOption);
        }

        return true;
    }

    private static bool Fail(TaskLoggingHelper log, string message, params object[] arguments)
    {
        log.LogErrorWithCodeFromResources(message, arguments);
        return false;
    }
}
