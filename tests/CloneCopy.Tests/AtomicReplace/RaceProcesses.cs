using System;
using System.Diagnostics;
using System.IO;
using System.Text.RegularExpressions;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>Starts the test program in one of <see cref="ReplaceRaceDriver"/>'s modes, as a process of its own.</summary>
internal static class RaceProcesses
{
    private static string Assembly => typeof(RaceProcesses).Assembly.Location;

    public static Process Start(bool disableDotNetLocks, params string[] arguments) =>
        Start(disableDotNetLocks, new System.Collections.Generic.Dictionary<string, string>(), arguments);

    /// <param name="environment">Variables set for this process only (XDG_DATA_HOME: where it keeps its per-user record of replacements).</param>
    public static Process Start(bool disableDotNetLocks, System.Collections.Generic.IReadOnlyDictionary<string, string> environment, params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(Assembly);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        if (disableDotNetLocks)
        {
            // The reader reads as a tool that is not .NET does (cat, an IDE, a scanner): without .NET's advisory
            // flock, which would otherwise make it wait for the writer's lock instead of seeing what is there.
            start.Environment["DOTNET_SYSTEM_IO_DISABLEFILELOCKING"] = "1";
        }

        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        return Process.Start(start) ?? throw new InvalidOperationException("could not start the test program");
    }

    /// <summary>Waits for a process and returns its standard output, failing with both streams when it failed.</summary>
    public static string Finish(Process process, int timeoutSeconds)
    {
        var error = process.StandardError.ReadToEndAsync();
        string output = process.StandardOutput.ReadToEnd();
        if (!process.WaitForExit(timeoutSeconds * 1000))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"the race process did not finish in {timeoutSeconds} s: {output}");
        }

        return process.ExitCode == 0 ? output : throw new InvalidOperationException($"the race process failed ({process.ExitCode}): {output}{error.Result}");
    }

    public static long Count(string output, string name) =>
        long.Parse(Regex.Match(output, $@"\b{name} (\d+)").Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The temporary files of atomic replaces in a folder.</summary>
    public static string[] Leftovers(string folder) => Directory.GetFiles(folder, ".clonecopy-*");
}
