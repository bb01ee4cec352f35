using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// Counts the system calls this process makes on one folder while an action runs, by attaching strace to every
/// thread of the process (ptrace: needs root or CAP_SYS_PTRACE, which the test lanes have). Counting calls
/// rather than timing them makes the result the same on a loaded machine as on a quiet one.
/// </summary>
/// <remarks>
/// A call is counted when its arguments name the folder (a path, or a descriptor strace decodes to a path
/// with <c>-y</c>), or when it is one of the calls that name no path but belong to copying a file
/// (<c>getcwd</c>, <c>geteuid</c>): the suite runs its tests one at a time, so no other test makes those
/// while the action runs.
/// </remarks>
public static partial class SystemCallTrace
{
    private static readonly string[] PathlessFileCalls = ["getcwd", "geteuid"];

    public static bool Available => File.Exists("/usr/bin/strace");

    /// <summary>Runs <paramref name="action"/> under strace and returns how many times each call touched <paramref name="folder"/>.</summary>
    public static IReadOnlyDictionary<string, int> Count(string folder, Action action)
    {
        string log = Path.Combine(Path.GetTempPath(), $"clonecopy-strace-{Environment.ProcessId}-{Guid.NewGuid():N}.log");
        int[] threads = Directory.GetDirectories("/proc/self/task").Select(t => int.Parse(Path.GetFileName(t), System.Globalization.CultureInfo.InvariantCulture)).ToArray();
        var arguments = new List<string> { "-f", "-y", "-qq", "-e", "trace=%file,%desc,getcwd,geteuid", "-o", log };
        foreach (int thread in threads)
        {
            arguments.Add("-p");
            arguments.Add(thread.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        var start = new ProcessStartInfo("strace") { RedirectStandardError = true, UseShellExecute = false };
        arguments.ForEach(start.ArgumentList.Add);
        using var strace = Process.Start(start) ?? throw new InvalidOperationException("could not start strace");
        bool detached;
        try
        {
            WaitUntilTraced(threads, strace);
            action();
        }
        finally
        {
            // SIGINT makes strace detach from every thread and flush its log; a killed strace could leave threads stopped.
            Interrupt(strace.Id);
            detached = strace.WaitForExit(30_000);
            if (!detached)
            {
                strace.Kill();
            }
        }

        if (!detached)
        {
            throw new TimeoutException("strace did not detach within 30 s"); // after the finally (CA2219): an exception of the action itself is not hidden
        }

        try
        {
            return Tally(File.ReadLines(log), folder);
        }
        finally
        {
            // CLONECOPY_KEEP_STRACE=<folder> keeps every log, to read which call a count is made of.
            string? keep = Environment.GetEnvironmentVariable("CLONECOPY_KEEP_STRACE");
            if (!string.IsNullOrEmpty(keep))
            {
                File.Copy(log, Path.Combine(keep, Path.GetFileName(log)), overwrite: true);
            }

            File.Delete(log);
        }
    }

    /// <summary>Counts, per call name, the lines of an strace log that touch <paramref name="folder"/> (see the class remarks).</summary>
    public static IReadOnlyDictionary<string, int> Tally(IEnumerable<string> lines, string folder)
    {
        var counts = new SortedDictionary<string, int>(StringComparer.Ordinal);
        foreach (string line in lines)
        {
            // With -f a call another thread interrupts is split: "<unfinished ...>" holds its arguments and is counted,
            // "<... name resumed>" only its result and is not.
            Match call = CallLine().Match(line);
            if (!call.Success)
            {
                continue;
            }

            string name = call.Groups["name"].Value;
            if (TouchesFolder(line, folder) || PathlessFileCalls.Contains(name))
            {
                counts[name] = counts.GetValueOrDefault(name) + 1;
            }
        }

        return counts;
    }

    /// <summary>
    /// Whether a call names the folder: an absolute path or a descriptor in it, or a relative path (resolved against the
    /// current folder, which the tests set to the folder). strace decodes AT_FDCWD to the current folder, so that
    /// decoration alone does not count: the runtime's own opens of /proc and /tmp would.
    /// </summary>
    private static bool TouchesFolder(string line, string folder)
    {
        string withoutCwd = CurrentFolderDecoration().Replace(line, "AT_FDCWD");
        if (withoutCwd.Contains(folder, StringComparison.Ordinal))
        {
            return true;
        }

        Match path = FirstPath().Match(withoutCwd);
        return withoutCwd.Contains("AT_FDCWD", StringComparison.Ordinal) && path.Success && !path.Groups["path"].Value.StartsWith('/');
    }

    private static void WaitUntilTraced(int[] threads, Process strace)
    {
        var deadline = Stopwatch.StartNew();
        while (!threads.All(IsTracedOrGone))
        {
            if (strace.HasExited)
            {
                throw new InvalidOperationException($"strace exited with {strace.ExitCode}: {strace.StandardError.ReadToEnd()}");
            }

            if (deadline.Elapsed > TimeSpan.FromSeconds(30))
            {
                throw new TimeoutException("strace did not attach to every thread within 30 s");
            }

            Thread.Sleep(10);
        }
    }

    private static bool IsTracedOrGone(int thread)
    {
        try
        {
            string? tracer = File.ReadLines($"/proc/self/task/{thread}/status").FirstOrDefault(l => l.StartsWith("TracerPid:", StringComparison.Ordinal));
            return tracer is null || tracer.Split('\t', StringSplitOptions.RemoveEmptyEntries)[^1].Trim() != "0";
        }
        catch (IOException)
        {
            return true; // the thread ended
        }
    }

    private static void Interrupt(int pid)
    {
        using var kill = Process.Start(new ProcessStartInfo("kill", $"-INT {pid}") { UseShellExecute = false })!;
        kill.WaitForExit();
    }

    [GeneratedRegex(@"AT_FDCWD<[^>]*>")]
    private static partial Regex CurrentFolderDecoration();

    [GeneratedRegex("\"(?<path>[^\"]*)\"")]
    private static partial Regex FirstPath();

    [GeneratedRegex(@"^(?:\[pid\s+\d+\]\s+|\d+\s+)?(?<name>[a-z_0-9]+)\(")]
    private static partial Regex CallLine();
}
