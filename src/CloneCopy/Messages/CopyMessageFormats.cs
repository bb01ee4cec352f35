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
    /// <summary>The formats of one UI language; replaced whole when the language changes (a reused node).</summary>
    private static Formats s_formats = new(CultureInfo.CurrentUICulture);

    public static void LogCopyMessage(this TaskLoggingHelper log, MessageImportance importance, string resourceName, params object[] arguments)
    {
        if (!log.LogsMessagesOfImportance(importance))
        {
            return;
        }

        Formats formats = s_formats;
        CultureInfo culture = CultureInfo.CurrentUICulture;
        if (!string.Equals(formats.Culture.Name, culture.Name, System.StringComparison.Ordinal))
        {
            s_formats = formats = new Formats(culture);
        }

        if (!formats.ByName.TryGetValue(resourceName, out string? format))
        {
            format = log.GetResourceMessage(resourceName);
            formats.ByName.TryAdd(resourceName, format);
        }

        log.LogMessage(importance, format, arguments);
    }

    private sealed class Formats
    {
        public Formats(CultureInfo culture) => Culture = culture;

        public CultureInfo Culture { get; }

        public ConcurrentDictionary<string, string> ByName { get; } = new();
    }
}
