using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// Logging with an explicit code. Messages go out with no format arguments, and TaskLoggingHelper only
/// formats when there are some, so a path containing braces is logged as it is.
/// </summary>
internal static class TaskLog
{
    private static readonly object[] NoArguments = [];

    public static void Error(TaskLoggingHelper log, string? code, string message) =>
        log.LogError(null, code, null, null, 0, 0, 0, 0, message, NoArguments);

    public static void Warning(TaskLoggingHelper log, string code, string message) =>
        log.LogWarning(null, code, null, null, 0, 0, 0, 0, message, NoArguments);

    public static void Message(TaskLoggingHelper log, MessageImportance importance, string message, string? code = null) =>
        log.LogMessage(null, code, null, null, 0, 0, 0, 0, importance, message, NoArguments);}
