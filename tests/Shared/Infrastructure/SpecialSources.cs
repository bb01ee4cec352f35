using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;
using CloneCopy.Platform.Linux;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// Sources whose size (0) does not say what they hold, on Linux: a named pipe fed by a writer, and a /proc
/// file. A copy that trusts the size writes them empty; File.Copy, which MSBuild's Copy calls, reads them to
/// their end.
/// </summary>
public static class SpecialSources
{
    /// <summary>A /proc file whose content is known ("Linux\n") and whose size reads as 0.</summary>
    public const string ProcFile = "/proc/sys/kernel/ostype";

    /// <summary>What a fed pipe gives its reader: 14 bytes.</summary>
    public static readonly byte[] PipeContent = "fourteen bytes"u8.ToArray();

    /// <summary>The last-write time a pipe is given, and given back after each write (a write to a pipe sets it to now).</summary>
    public static readonly DateTime PipeTime = new(2021, 3, 4, 5, 6, 7, DateTimeKind.Utc);

    private const int O_NONBLOCK = 0x800;
    private const int ENXIO = 6;
    private static FileStream? s_procPin;

    /// <summary>
    /// Keeps <see cref="ProcFile"/> open for the life of the process: a /proc inode is made anew (with the time
    /// of that moment as its last-write time) when the kernel forgets it, and both tasks of a scenario must
    /// find the same timestamp to copy.
    /// </summary>
    public static void PinProcFile()
    {
        if (s_procPin is null && OperatingSystem.IsLinux())
        {
            Interlocked.CompareExchange(ref s_procPin, new FileStream(ProcFile, FileMode.Open, FileAccess.Read, FileShare.ReadWrite), null);
        }
    }

    /// <summary>Makes a named pipe (mode rw-r--r--, last-write time <see cref="PipeTime"/>).</summary>
    public static void MakePipe(string path)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        if (MkFifo(path, 0b110_100_100) != 0)
        {
            throw new IOException($"mkfifo {path}: errno {Marshal.GetLastPInvokeError()}");
        }

        File.SetLastWriteTimeUtc(path, PipeTime);
    }

    /// <summary>
    /// A writer for the pipe at <paramref name="path"/>, until disposed: the first reader to open it gets
    /// <see cref="PipeContent"/> and then end of file; any later reader gets end of file at once, so a copy that
    /// opens the pipe twice sees nothing the second time (and shows as a difference) instead of hanging. Each
    /// task of a scenario gets its own writer. It never waits without a limit: it polls for a reader and gives
    /// up after <paramref name="timeout"/>.
    /// </summary>
    public static IDisposable Feed(string path, TimeSpan? timeout = null) => new PipeWriter(path, timeout ?? TimeSpan.FromSeconds(60));

    private sealed class PipeWriter : IDisposable
    {
        private readonly string _path;
        private readonly TimeSpan _timeout;
        private readonly Thread _thread;
        private volatile bool _stop;

        public PipeWriter(string path, TimeSpan timeout)
        {
            _path = path;
            _timeout = timeout;
            _thread = new Thread(Run) { IsBackground = true, Name = "pipe writer" };
            _thread.Start();
        }

        private unsafe void Run()
        {
            var deadline = DateTime.UtcNow + _timeout;
            bool fed = false;
            while (!_stop && DateTime.UtcNow < deadline)
            {
                // Non-blocking: ENXIO while nobody reads; success as soon as a reader opens (or waits in open).
                int fd = LibC.Open(_path, LibC.O_WRONLY | O_NONBLOCK | LibC.O_CLOEXEC, 0);
                if (fd < 0)
                {
                    if (Marshal.GetLastPInvokeError() != ENXIO)
                    {
                        return; // the pipe is gone: the scenario has ended
                    }

                    Thread.Sleep(2);
                    continue;
                }

                if (!fed)
                {
                    fed = true;

                    // A moment for the reader, just let out of open(), to look at the pipe as it was (its statx).
                    Thread.Sleep(20);
                    fixed (byte* data = PipeContent)
                    {
                        LibC.Write(fd, data, (nuint)PipeContent.Length);
                    }

                    // The write set the pipe's last-write time to now; give it back its own, so both tasks
                    // copy the same timestamp whenever they read it.
                    SetPipeTime(fd);
                }

                LibC.Close(fd);
                Thread.Sleep(2);
            }
        }

        private static unsafe void SetPipeTime(int fd)
        {
            long seconds = new DateTimeOffset(PipeTime).ToUnixTimeSeconds();
            LibC.Timespec* times = stackalloc LibC.Timespec[2];
            times[0] = new LibC.Timespec { Seconds = seconds };
            times[1] = new LibC.Timespec { Seconds = seconds };
            LibC.FUtimens(fd, times);
        }

        public void Dispose()
        {
            _stop = true;
            _thread.Join(TimeSpan.FromSeconds(10));
        }
    }

    [DllImport("libc", EntryPoint = "mkfifo", SetLastError = true)]
    private static extern int MkFifo([MarshalAs(UnmanagedType.LPUTF8Str)] string path, uint mode);
}
