using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// `dotnet build` as a user runs it, with the processes that outlive a build: node reuse on (MSBuild's default; this
/// machine's MSBUILDDISABLENODEREUSE=1 cleared) and the MSBuild Server on (the .NET 11 SDK's default for `dotnet build`;
/// the installed .NET 10 SDK takes DOTNET_CLI_USE_MSBUILD_SERVER=1 as the opt-in). Every build of one session goes to
/// the same server and reused worker nodes. The session has a handshake salt of its own (MSBUILDNODEHANDSHAKESALT, which
/// MSBuild folds into the server's pipe name and every node's handshake): no other build on the machine connects to its
/// processes, it connects to no one else's, and its shutdown reaches only its own. <see cref="ShutDown"/> ends them all
/// (`dotnet build-server shutdown --msbuild` with the session's environment, then, by pid, the task hosts that command
/// leaves running) and says whether any is left.
/// </summary>
public sealed class MSBuildServerSession : IDisposable
{
    private readonly string _nugetPackages;
    private bool _shutDown;

    public MSBuildServerSession(string nugetPackages)
    {
        _nugetPackages = nugetPackages;
        Salt = $"clonecopy-test-{Guid.NewGuid():N}";
    }

    public string Salt { get; }

    /// <summary>Runs `dotnet <paramref name="arguments"/>` in <paramref name="workingDirectory"/>; <paramref name="onLine"/> sees each line of its output as it comes, with the client's process.</summary>
    public (int ExitCode, string Output) Run(string arguments, string workingDirectory, IReadOnlyDictionary<string, string>? environment = null, Action<string, Process>? onLine = null, int timeoutSeconds = 900)
    {
        ProcessStartInfo start = Start(arguments, workingDirectory, environment);
        var output = new StringBuilder();
        using var process = Process.Start(start) ?? throw new InvalidOperationException("could not start dotnet");
        var stderr = process.StandardError.ReadToEndAsync();
        var reading = System.Threading.Tasks.Task.Run(() =>
        {
            for (string? line = process.StandardOutput.ReadLine(); line is not null; line = process.StandardOutput.ReadLine())
            {
                lock (output)
                {
                    output.AppendLine(line);
                }

                onLine?.Invoke(line, process);
            }
        });
        if (!process.WaitForExit(timeoutSeconds * 1000))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"dotnet {arguments} did not finish in {timeoutSeconds} s:{Environment.NewLine}{output}");
        }

        reading.Wait();
        return (process.ExitCode, output + stderr.Result);
    }

    /// <summary>This session's MSBuild processes now alive: the server (/nodemode:8), worker nodes (1), task hosts (2), by pid.</summary>
    public IReadOnlyList<(int Pid, int NodeMode)> Processes()
    {
        var found = new List<(int, int)>();
        foreach (string entry in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(entry), out int pid))
            {
                continue;
            }

            try
            {
                string[] arguments = File.ReadAllText(Path.Combine(entry, "cmdline")).Split('\0');
                string? mode = arguments.FirstOrDefault(a => a.StartsWith("/nodemode:", StringComparison.OrdinalIgnoreCase));
                if (mode is not null && File.ReadAllText(Path.Combine(entry, "environ")).Split('\0').Contains($"MSBUILDNODEHANDSHAKESALT={Salt}"))
                {
                    found.Add((pid, int.Parse(mode["/nodemode:".Length..], System.Globalization.CultureInfo.InvariantCulture)));
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Gone meanwhile.
            }
        }

        return found;
    }

    /// <summary>
    /// Ends the session's server and nodes as a user would (`dotnet build-server shutdown --msbuild`, same environment),
    /// then any of its processes still alive 20 s later by pid (task hosts of -mt builds outlive that command). Returns
    /// what it took, and throws when a process of the session is still alive after all that.
    /// </summary>
    public string ShutDown()
    {
        _shutDown = true;
        var (code, output) = ProcessRunner.Run(Start("build-server shutdown --msbuild", Path.GetTempPath(), environment: null), 120);
        var said = new StringBuilder($"build-server shutdown --msbuild: exit {code}: {output.Trim()}");
        var left = WaitForNone(TimeSpan.FromSeconds(20));
        if (left.Count > 0)
        {
            said.Append(CultureInfo.InvariantCulture, $"; still alive after it: {string.Join(", ", left.Select(p => $"{p.Pid} (/nodemode:{p.NodeMode})"))}, ended by pid");
            foreach (var (pid, _) in left)
            {
                End(pid);
            }

            left = WaitForNone(TimeSpan.FromSeconds(20));
        }

        if (left.Count > 0)
        {
            throw new InvalidOperationException($"{said}; processes of the session still alive: {string.Join(", ", left.Select(p => p.Pid))}");
        }

        return said.ToString();
    }

    public void Dispose()
    {
        if (!_shutDown)
        {
            // A test that failed before its own shutdown: still leave nothing behind.
            try
            {
                ShutDown();
            }
            catch (InvalidOperationException)
            {
                // Reported by the test's own failure; nothing more can be done here.
            }
        }
    }

    private IReadOnlyList<(int Pid, int NodeMode)> WaitForNone(TimeSpan within)
    {
        var stopwatch = Stopwatch.StartNew();
        IReadOnlyList<(int Pid, int NodeMode)> alive;
        while ((alive = Processes()).Count > 0 && stopwatch.Elapsed < within)
        {
            Thread.Sleep(250);
        }

        return alive;
    }

    private static void End(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            process.Kill();
            process.WaitForExit(10_000);
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            // Ended meanwhile.
        }
    }

    private ProcessStartInfo Start(string arguments, string workingDirectory, IReadOnlyDictionary<string, string>? environment)
    {
        // Through env(1) with SIGINT at its default: a process started in the background by a non-interactive shell (a CI
        // step, `cmd &` in a script, nohup) ignores SIGINT, every process it starts inherits that, and .NET then leaves it
        // ignored, so the client would never see the Ctrl+C a test sends it. A user's terminal gives it the default.
        // env replaces itself with dotnet: the process started is the client, under the same id.
        var start = new ProcessStartInfo("env", $"--default-signal=INT dotnet {arguments}")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory,
        };

        // A user's shell: none of the MSBuild variables the test host inherits, nor this machine's opt-outs.
        foreach (string name in start.Environment.Keys.Where(n => n.StartsWith("MSBuild", StringComparison.OrdinalIgnoreCase) || n == "DOTNET_HOST_PATH").ToList())
        {
            start.Environment.Remove(name);
        }

        start.Environment["DOTNET_CLI_USE_MSBUILD_SERVER"] = "1";
        start.Environment["MSBUILDNODEHANDSHAKESALT"] = Salt;
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        start.Environment["NUGET_PACKAGES"] = _nugetPackages;
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        return start;
    }
}
