using System;
using System.Collections;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Integration;

/// <summary>Runs the dotnet CLI as a separate process, with a clean MSBuild environment.</summary>
public static class Dotnet
{
    /// <param name="program">Another program to start instead (script(1), to give dotnet a terminal), with its own arguments.</param>
    /// <param name="environment">Variables to set for this run only (the runtime's own diagnostics, for one).</param>
    public static (int ExitCode, string Output) Run(string arguments, string workingDirectory, string? nugetPackages, int timeoutSeconds = 600, string program = "dotnet", string? programArguments = null, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(program, programArguments ?? arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory,
        };

        // The test host runs under `dotnet test`, which leaves MSBuild variables behind (MSBuildSDKsPath,
        // MSBUILD_EXE_PATH, ...). A user's build has none of them.
        foreach (string name in start.Environment.Keys.Where(IsMSBuildVariable).ToList())
        {
            start.Environment.Remove(name);
        }

        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        start.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        if (program != "dotnet")
        {
            // A user's terminal: a terminal type, and not a CI job (the terminal logger keeps out of CI logs).
            start.Environment["TERM"] = "xterm-256color";
            foreach (string ci in new[] { "CI", "TF_BUILD", "GITHUB_ACTIONS" })
            {
                start.Environment.Remove(ci);
            }
        }

        if (nugetPackages is not null)
        {
            start.Environment["NUGET_PACKAGES"] = nugetPackages;
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        return ProcessRunner.Run(start, timeoutSeconds);
    }

    private static bool IsMSBuildVariable(string name) =>
        name.StartsWith("MSBuild", StringComparison.OrdinalIgnoreCase) || name.StartsWith("MSBUILD", StringComparison.Ordinal)
        || name.Equals("DOTNET_HOST_PATH", StringComparison.Ordinal);
}
