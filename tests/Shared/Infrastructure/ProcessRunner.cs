using System;
using System.Diagnostics;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>Runs a command and returns its exit code and combined output.</summary>
public static class ProcessRunner
{
    public static (int ExitCode, string Output) Run(string fileName, string arguments, string? workingDirectory = null, int timeoutSeconds = 300)
    {
        var start = new ProcessStartInfo(fileName, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        return Run(start, timeoutSeconds);
    }

    /// <summary>Runs a prepared start (output redirected), killing its whole tree after the timeout.</summary>
    public static (int ExitCode, string Output) Run(ProcessStartInfo start, int timeoutSeconds)
    {
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {start.FileName}");
        var stderr = process.StandardError.ReadToEndAsync();
        string stdout = process.StandardOutput.ReadToEnd();
        if (!process.WaitForExit(timeoutSeconds * 1000))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{start.FileName} {start.Arguments} did not finish in {timeoutSeconds} s");
        }

        return (process.ExitCode, stdout + stderr.Result);
    }

    public static string RunChecked(string fileName, string arguments, string? workingDirectory = null)
    {
        (int code, string output) = Run(fileName, arguments, workingDirectory);
        if (code != 0)
        {
            throw new InvalidOperationException($"`{fileName} {arguments}` exited with {code}:{Environment.NewLine}{output}");
        }

        return output;
    }
}
