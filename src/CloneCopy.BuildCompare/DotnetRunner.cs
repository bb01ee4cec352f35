using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace CloneCopy.BuildCompare;

/// <summary>Runs one `dotnet` command in a folder, its whole output (stdout and stderr, interleaved) to a log file.</summary>
public static class DotnetRunner
{
    public sealed record Outcome(int ExitCode, TimeSpan Elapsed, string LogPath);

    public static async Task<Outcome> RunAsync(string workingDirectory, IEnumerable<string> arguments, string logPath, CancellationToken cancellation)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // Same conditions for every build: no MSBuild node outlives its build (a reused node would have loaded one
        // way's Copy task for the next build), the classic console logger (the terminal logger hides the task
        // messages this tool reads), English messages, no telemetry or first-run text in the timing.
        start.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        start.Environment["DOTNET_CLI_UI_LANGUAGE"] = "en";
        start.Environment["MSBUILDTERMINALLOGGER"] = "off";

        await using var log = new StreamWriter(logPath);
        await log.WriteLineAsync($"> dotnet {string.Join(' ', start.ArgumentList)}   (in {workingDirectory})");
        var writeLock = new object();
        IOException? logFailure = null;

        // Called on the process's reader threads: an exception here would end the tool without putting the
        // repository back (seen once: the disk filled up during a build). It is kept, and reported after the build.
        void Append(string? line)
        {
            if (line is not null)
            {
                lock (writeLock)
                {
                    try
                    {
                        if (logFailure is null)
                        {
                            log.WriteLine(line);
                        }
                    }
                    catch (IOException e)
                    {
                        logFailure = e;
                    }
                }
            }
        }

        var watch = Stopwatch.StartNew();
        using var process = Process.Start(start) ?? throw new CompareFailure("Cannot start `dotnet`: is the .NET SDK on PATH?");
        process.OutputDataReceived += (_, e) => Append(e.Data);
        process.ErrorDataReceived += (_, e) => Append(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            await process.WaitForExitAsync(cancellation);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }

        watch.Stop();
        process.WaitForExit();   // the output readers have delivered every line
        if (logFailure is not null)
        {
            throw new CompareFailure($"Could not write the log of `dotnet {start.ArgumentList[0]}`: {logFailure.Message}", logPath);
        }

        return new Outcome(process.ExitCode, watch.Elapsed, logPath);
    }
}
