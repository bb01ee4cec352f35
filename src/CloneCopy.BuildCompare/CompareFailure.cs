using System;

namespace CloneCopy.BuildCompare;

/// <summary>
/// A failure the user can act on: what failed, in words, and the log to read. Shown as it is, without a stack trace.
/// </summary>
public sealed class CompareFailure : Exception
{
    public CompareFailure(string message, string? logPath = null)
        : base(logPath is null ? message : $"{message}{Environment.NewLine}Read the log: {logPath}")
    {
        LogPath = logPath;
    }

    public string? LogPath { get; }
}
