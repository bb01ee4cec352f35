using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// strace(1) attached to processes that already run (a build server and its worker nodes between two builds), with all
/// their threads and the processes they start, recording some calls with file paths (pread64 and ioctl unless told)
/// until <see cref="Stop"/>. It can also hold each of those calls back before it runs (strace's inject=...:delay_enter),
/// which makes a build's copies as slow as a test needs them, whatever the machine's speed.
/// </summary>
internal sealed class AttachedTrace : IDisposable
{
    private readonly Process _strace;
    private readonly string _file;
    private bool _stopped;

    public AttachedTrace(string file, IEnumerable<int> pids, string calls = "pread64,ioctl", TimeSpan? delayEachCall = null)
    {
        _file = file;
        int[] attached = [.. pids];
        string delay = delayEachCall is { } held ? $" -e inject={calls}:delay_enter={(long)held.TotalMicroseconds}" : string.Empty;
        var start = new ProcessStartInfo("strace", $"-f -y -e trace={calls}{delay} -o \"{file}\" {string.Join(' ', attached.Select(p => $"-p {p}"))}")
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        _strace = Process.Start(start) ?? throw new InvalidOperationException("could not start strace");
        _strace.BeginOutputReadLine();

        // Attached once strace has said so for each process ("strace: Process N attached"), so no call of the build is missed.
        var said = new HashSet<int>();
        var stopwatch = Stopwatch.StartNew();
        while (!attached.All(said.Contains))
        {
            string? line = _strace.StandardError.ReadLine();
            if (line is null || stopwatch.Elapsed > TimeSpan.FromSeconds(60))
            {
                throw new InvalidOperationException($"strace did not attach to {string.Join(", ", attached)} (last: {line})");
            }

            string[] words = line.Split(' ');
            if (words.Length >= 4 && words[1] == "Process" && words[3] == "attached" && int.TryParse(words[2], out int pid))
            {
                said.Add(pid);
            }
        }

        _ = _strace.StandardError.ReadToEndAsync();
    }

    /// <summary>Detaches (SIGINT, as at a terminal; killed if that hangs) and returns the calls recorded.</summary>
    public string[] Stop()
    {
        _stopped = true;
        ProcessRunner.Run("kill", $"-INT {_strace.Id}");
        if (!_strace.WaitForExit(60_000))
        {
            // strace before 6.7 (Debian 12 has 6.1) can hang detaching from a process in the middle of a vfork, which
            // .NET's Process.Start uses: the parent waits, uninterruptible, for a child strace itself holds stopped
            // (strace/strace#277). Killed, strace leaves the kernel to detach and resume every tracee, and its file
            // keeps every call it recorded (it writes each line as the call ends: seen with 6.1 under SIGKILL).
            _strace.Kill();
            _strace.WaitForExit();
        }

        return File.ReadAllLines(_file);
    }

    public void Dispose()
    {
        if (!_stopped && !_strace.HasExited)
        {
            ProcessRunner.Run("kill", $"-INT {_strace.Id}");
            _strace.WaitForExit(60_000);
        }

        _strace.Dispose();
    }
}
