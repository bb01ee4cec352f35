using System.Linq;
using System.Runtime.InteropServices;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>kill(2), for the signals .NET's Process does not send: a writer stopped (SIGSTOP) where the test wants it, looked at, then killed or let go.</summary>
internal static partial class Signals
{
    /// <summary>SIGSTOP on Linux (x86-64 and arm64).</summary>
    public const int Stop = 19;

    /// <summary>SIGCONT on Linux.</summary>
    public const int Continue = 18;

    /// <summary>
    /// Returns once every thread of the process is stopped (state T in /proc/PID/task/*/stat): a system call it was in when
    /// SIGSTOP came has returned, and it makes no other until SIGCONT.
    /// </summary>
    public static void WaitUntilStopped(int processId)
    {
        while (!System.IO.Directory.EnumerateDirectories($"/proc/{processId}/task").All(IsStopped))
        {
            System.Threading.Thread.Yield();
        }
    }

    private static bool IsStopped(string task)
    {
        try
        {
            // "pid (comm) S ...": the state follows the last ')' (comm may hold spaces and parentheses).
            string stat = System.IO.File.ReadAllText(System.IO.Path.Combine(task, "stat"));
            return stat[stat.LastIndexOf(')') + 2] is 'T' or 't';
        }
        catch (System.IO.IOException)
        {
            return true; // a thread that ended
        }
    }

    /// <summary>0, or -1 with errno set.</summary>
    public static int Send(int processId, int signal) => Kill(processId, signal);

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int sig);
}
