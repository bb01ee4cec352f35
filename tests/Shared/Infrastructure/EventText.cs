using System;
using System.Text.RegularExpressions;
using Microsoft.Build.Framework;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// Every field MSBuild fills in on a task's build event, in one line, so that two tasks' events can be
/// compared verbatim: kind, code, subcategory, file, line and column span, help keyword, sender,
/// importance and text.
/// </summary>
public static class EventText
{
    public static string Verbatim(BuildEventArgs e, string root)
    {
        string fields = e switch
        {
            BuildErrorEventArgs error => $"error|code={error.Code}|sub={error.Subcategory}|file={error.File}|at={error.LineNumber},{error.ColumnNumber},{error.EndLineNumber},{error.EndColumnNumber}|help={error.HelpKeyword}",
            BuildWarningEventArgs warning => $"warning|code={warning.Code}|sub={warning.Subcategory}|file={warning.File}|at={warning.LineNumber},{warning.ColumnNumber},{warning.EndLineNumber},{warning.EndColumnNumber}|help={warning.HelpKeyword}",
            BuildMessageEventArgs message => $"message|code={message.Code}|sub={message.Subcategory}|file={message.File}|at={message.LineNumber},{message.ColumnNumber},{message.EndLineNumber},{message.EndColumnNumber}|help={message.HelpKeyword}|importance={message.Importance}",
            _ => $"{e.GetType().Name}",
        };
        string text = StackFrames.Replace((e.Message ?? string.Empty).Replace(root, "<root>", StringComparison.Ordinal), " <stack>");
        return $"{fields}|sender={e.SenderName}|{text}";
    }

    /// <summary>
    /// Stack frames inside a quoted exception (MSB3894 quotes Exception.ToString()): they name the methods of
    /// whichever task threw, so they are the one part of a text that cannot be the same.
    /// </summary>
    private static readonly Regex StackFrames = new(@"(\r?\n\s+at [^\r\n]*?(?=( copying "")|\r?\n|$))+", RegexOptions.CultureInvariant);
}
