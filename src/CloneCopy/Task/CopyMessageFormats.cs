using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// Copy's per-file messages as MSBuild's Copy logs them: the format string looked up once (per UI language)
/// and logged with its arguments, which the event formats when a logger reads it. A resource lookup and a
/// string.Format per file would cost more, and the event would not be the same.
/// </summary>
internal static class CopyMessageFormats
{
    private static readonly ConcurrentDictionary<string, string> Formats = new();

    public static void LogCopyMessage(this TaskLoggingHelper log, MessageImportance importance, string resourceName, params object[] arguments)
    {
        if (!log.LogsMessagesOfImportance(importance))
        {
            return;
        }

        string key = CultureInfo.CurrentUICulture.Name + "|" + resourceName;
        if (!Formats.TryGetValue(key, out string? format))
        {
            format = log.GetResourceMessage(resourceName);
            Formats.TryAdd(key, format);
        }

        log.LogMessage(importance, format, arguments);
    }
}
