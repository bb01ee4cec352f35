using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// MSBuild 18.12 on .NET 11, as the .NET 11 SDK's MSBuild runs: tools/MSBuild18Host (Microsoft.Build 18.12.2's
/// BuildManager, self-contained on the .NET 11.0.0 runtime), published once per test run on first use, with the
/// installed SDK's toolset (common targets, SDK resolvers). No .NET 11 SDK is installed, so this is how this machine
/// builds a project with the engine and runtime such a user has.
/// </summary>
public sealed class MSBuild18 : IDisposable
{
    private readonly Lazy<(string Host, string Sdk)> _published;
    private readonly string _directory = Path.Combine(Path.GetTempPath(), $"clonecopy-msbuild18-{Environment.ProcessId}");

    public MSBuild18() => _published = new Lazy<(string, string)>(Publish, LazyThreadSafetyMode.ExecutionAndPublication);

    /// <summary>
    /// Runs the host in <paramref name="workingDirectory"/> with <paramref name="arguments"/> (its own: --mt, --builds N,
    /// --no-restore, -p:..., the project); before each build after the first, <paramref name="betweenBuilds"/> gets the
    /// number of the build about to start, in the one process that built the ones before.
    /// </summary>
    /// <param name="strace">A file for strace(1)'s record of the process's pread64 and ioctl calls (with file paths), or null.</param>
    public (int ExitCode, string Output) Run(string arguments, string workingDirectory, string? nugetPackages, IReadOnlyDictionary<string, string>? environment = null, Action<int>? betweenBuilds = null, string? strace = null)
    {
        var (host, sdk) = _published.Value;
        string hostArguments = $"--sdk \"{sdk}\" {arguments}";
        var (program, programArguments) = strace is null
            ? (host, hostArguments)
            : ("strace", $"-f -y -e trace=pread64,ioctl -o \"{strace}\" \"{host}\" {hostArguments}");
        var start = new ProcessStartInfo(program, programArguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory,
        };

        // A user's shell: none of the MSBuild variables the test host inherits from `dotnet test`.
        foreach (string name in start.Environment.Keys.Where(n => n.StartsWith("MSBuild", StringComparison.OrdinalIgnoreCase) || n == "DOTNET_HOST_PATH").ToList())
        {
            start.Environment.Remove(name);
        }

        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        if (nugetPackages is not null)
        {
            start.Environment["NUGET_PACKAGES"] = nugetPackages;
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        var output = new StringBuilder();
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {host}");
        var stderr = process.StandardError.ReadToEndAsync();
        const string Waiting = "MSBuild18Host: waiting before build ";
        for (string? line = process.StandardOutput.ReadLine(); line is not null; line = process.StandardOutput.ReadLine())
        {
            output.AppendLine(line);
            if (line.StartsWith(Waiting, StringComparison.Ordinal))
            {
                betweenBuilds?.Invoke(int.Parse(line[Waiting.Length..], System.Globalization.CultureInfo.InvariantCulture));
                process.StandardInput.WriteLine();
                process.StandardInput.Flush();
            }
        }

        if (!process.WaitForExit(600_000))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{host} {start.Arguments} did not finish in 600 s");
        }

        return (process.ExitCode, output.ToString() + stderr.Result);
    }

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    private (string Host, string Sdk) Publish()
    {
        string repository = FindRepositoryRoot();
        var (code, output) = Dotnet.Run($"publish \"{Path.Combine(repository, "tools", "MSBuild18Host", "MSBuild18Host.csproj")}\" -c Release -o \"{_directory}\" -nologo", repository, nugetPackages: null);
        string host = Path.Combine(_directory, "MSBuild18Host");
        if (code != 0 || !File.Exists(host))
        {
            throw new InvalidOperationException($"publishing tools/MSBuild18Host failed ({code}):{Environment.NewLine}{output}");
        }

        // The toolset: the SDK this repository's global.json selects, in the folder `dotnet --list-sdks` names for it.
        string version = Dotnet.Run("--version", repository, nugetPackages: null).Output.Trim();
        string? listed = Dotnet.Run("--list-sdks", repository, nugetPackages: null).Output
            .Split('\n', StringSplitOptions.TrimEntries).FirstOrDefault(line => line.StartsWith(version + " [", StringComparison.Ordinal));
        string sdk = listed is null ? string.Empty : Path.Combine(listed[(version.Length + 2)..^1], version);
        if (!File.Exists(Path.Combine(sdk, "MSBuild.dll")))
        {
            throw new InvalidOperationException($"cannot find the .NET SDK {version}'s MSBuild.dll (dotnet --list-sdks: {listed})");
        }

        return (host, sdk);
    }

    private static string FindRepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "CloneCopy.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("Cannot find the repository root (CloneCopy.slnx) above " + AppContext.BaseDirectory);
    }
}
