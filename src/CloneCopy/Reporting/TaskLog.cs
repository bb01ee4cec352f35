using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// CloneCopy's own messages (its summary, per-file detail and CLC codes). Texts go out with no format
/// arguments, and TaskLoggingHelper only formats when there are some, so a path containing braces is
/// logged as it is. A plain message carries no location, as MSBuild's Copy's messages carry none; a
/// message, warning or error with a CLC code takes the task's location, as MSBuild's coded events do.
/// </summary>
internal static class TaskLog
{
    private static readonly object[] NoArguments = [];

    public static void Error(TaskLoggingHelper log, string code, string message) =>
        log.LogError(null, code, null, null, 0, 0, 0, 0, message, NoArguments);

    public static void Warning(TaskLoggingHelper log, string code, string message) =>
        log.LogWarning(null, code, null, null, 0, 0, 0, 0, message, NoArguments);

    public static void Message(TaskLoggingHelper log, MessageImportance importance, string message) =>
        log.LogMessage(importance, message, NoArguments);

    public static void CodedMessage(TaskLoggingHelper log, MessageImportance importance, string code, string message) =>
        log.LogMessage(null, code, null, null, 0, 0, 0, 0, importance, message, NoArguments);
}
