using System;
using System.Collections.Concurrent;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Sources written moments ago. microsoft/CopyOnWrite #12: "When cloning a single source file in parallel ... sometimes
/// success is returned but ... the destination file having all zeroes", a race inside ReFS while the source's data is
/// still in the cache; git-lfs #6312 (2026) met zero-filled clones on ReFS and Dev Drive again, and its fix (#6323)
/// flushes the source through a short-lived writable handle first. So does CloneCopy, once per source per build, for a
/// source changed within <see cref="FreshSourceTicks"/>: every build output it copies at once is such a file, and a
/// source older than that has long been written by the lazy writer (ASSUMED A18).
/// <para>
/// FlushFileBuffers needs GENERIC_WRITE (its page), and a writable open is refused while any handle denies writers, as
/// the clone's own source handle does. So the source is opened and looked at under a gate per source (a lock of this
/// process, <see cref="GateOf"/>): the one thread that finds a fresh source unflushed closes its handle, flushes
/// through a writable one, closes that and opens the source again, while every other thread of this process that
/// clones the same source waits at the gate (and then finds it flushed). Threads clone outside the gate, in parallel.
/// Where the writable open or the flush is refused (a read-only file, an ACL, another process holding the source
/// without sharing writes), the clone is read back whole before its metadata is set (<see cref="CloneTo"/>), so an
/// all-zero clone becomes CLC008 and a plain copy.
/// </para>
/// </summary>
internal sealed partial class WindowsBlockCloner
{
    /// <summary>Two minutes, in FILETIME units (100 ns): far beyond the lazy writer's pace (it writes every second).</summary>
    public const long FreshSourceTicks = 2L * 60 * 10_000_000;

    /// <summary>Sources flushed this build, with the ChangeTime they had then (a later write moves it: flushed again).</summary>
    private readonly ConcurrentDictionary<string, long> _flushed = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Locks by the source's name: one source always meets the same one; 64 keep unrelated sources apart.</summary>
    private readonly object[] _gates = NewGates(64);

    private object GateOf(string source) => _gates[(StringComparer.OrdinalIgnoreCase.GetHashCode(source) & int.MaxValue) % _gates.Length];

    /// <summary>True when the source changed within <see cref="FreshSourceTicks"/> (or in the future) and was not flushed at this ChangeTime. No call.</summary>
    private bool NeedsFlush(string source, Win32FileAllInformation sourceInfo)
    {
        long latest = Math.Max(sourceInfo.Times.ChangeTime, sourceInfo.Times.LastWriteTime);
        return DateTime.UtcNow.ToFileTimeUtc() - latest < FreshSourceTicks
            && !(_flushed.TryGetValue(source, out long at) && at == sourceInfo.Times.ChangeTime);
    }

    private void RememberFlushed(string source, Win32FileAllInformation sourceInfo) => _flushed[source] = sourceInfo.Times.ChangeTime;

    /// <summary>
    /// Flushes the file through a short-lived writable handle (three calls). False when the open or the flush is
    /// refused. Sharing everything, so another process opening the file meanwhile is not refused for it.
    /// </summary>
    private bool Flushed(string path)
    {
        if (_calls.CreateFile(path, Win32.GenericWrite, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle handle) != 0)
        {
            return false;
        }

        try
        {
            return _calls.FlushFileBuffers(handle) == 0;
        }
        finally
        {
            _calls.CloseHandle(handle);
        }
    }

    private static object[] NewGates(int count)
    {
        var gates = new object[count];
        for (int i = 0; i < count; i++)
        {
            gates[i] = new object();
        }

        return gates;
    }
}
