using System;
using System.Collections.Concurrent;
using System.Globalization;
using System.Threading;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Sources written moments ago. microsoft/CopyOnWrite #12: "When cloning a single source file in parallel (multiple
/// threads or processes) ... sometimes success is returned but ... the destination file having all zeroes": ReFS
/// flushes a source whose data is still in the cache before it clones it, and a clone that races another clone's flush
/// goes on anyway. git-lfs #6312 (2026) met zero-filled clones of unflushed sources on ReFS and Dev Drive again. Every
/// build output CloneCopy copies at once is such a file. So a fresh source (<see cref="IsFresh"/>):
/// <list type="bullet">
/// <item>has its clones made one at a time across the processes of the session (#12's first workaround): a named mutex
/// per file (<see cref="SerializeClonesOf"/>), held from just before the clone FSCTLs to just after them;</item>
/// <item>has each clone read back whole before its metadata is set (<see cref="CloneTo"/>): a clone holding zeros is then
/// CLC008 and a plain copy of the right bytes, whatever made it so (another session, a ReFS that clones unflushed data
/// alone, #6312);</item>
/// <item>is fresh no more once one of its clones was read back whole and right in this build (the clone's clusters are
/// the source's, so its data is on the volume) while its identity stays the same; nor is a file this process cloned
/// itself this build (its data is the shared clusters) or the copy it made and flushed at the link limit
/// (<see cref="RememberOnVolume"/>): a chain of copies pays once, at its first link.</item>
/// </list>
/// No writable handle is ever taken on a file CloneCopy did not write. FlushFileBuffers needs one (its page), and while
/// any handle has write access, every reader that does not share writing is refused: CopyFile, which opens its source for
/// reading sharing read and delete ("the source file must be closed or opened only for reading", Moving and Replacing
/// Files), Roslyn and .NET's File.OpenRead, which share read only. Only the copy CloneCopy made itself at the link limit
/// is flushed (<see cref="FlushedOwnCopy"/>). CLONECOPY_TEST_FRESH_SOURCES=unguarded (<see cref="FreshSourcesVariable"/>)
/// turns all of this off, so that CI can show whether zeros appear without it: a switch for tests, not for builds.
/// </summary>
internal sealed partial class WindowsBlockCloner
{
    /// <summary>Two minutes, in FILETIME units (100 ns): far beyond the lazy writer's pace (it writes every second).</summary>
    public const long FreshSourceTicks = 2L * 60 * 10_000_000;

    /// <summary>The environment variable that turns the fresh-source mitigation off, for tests only, with the value "unguarded".</summary>
    public const string FreshSourcesVariable = "CLONECOPY_TEST_FRESH_SOURCES";

    /// <summary>
    /// How long a clone waits for another one of the same source before it clones anyway (still read back whole): a clone
    /// holds the mutex from right before its first clone FSCTL to right after its last (a flush by ReFS of a large fresh
    /// file within the first included), so only a process that stopped while holding it (a debugger, a squatter of the
    /// name) makes anyone wait this long.
    /// </summary>
    public const int DefaultSerializedCloneWaitMilliseconds = 30_000;

    /// <summary>One wait call at most this long, so that a cancelled build stops waiting soon (an uncontended wait is one call).</summary>
    private const int WaitSliceMilliseconds = 250;

    /// <summary>
    /// Files whose data is known to be on the volume at this identity, this build: clones of this process (their
    /// ChangeTime set by the clone itself, so that any later change by anyone shows), fresh sources one of whose clones
    /// read back whole and right, and the copies flushed at the link limit. Forgotten with the volumes.
    /// </summary>
    private readonly ConcurrentDictionary<string, DataIdentity> _onVolume = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>How long a clone waits for the mutex before it goes on alone (<see cref="DefaultSerializedCloneWaitMilliseconds"/>; tests make it short).</summary>
    public int SerializedCloneWaitMilliseconds { get; init; } = DefaultSerializedCloneWaitMilliseconds;

    /// <summary>False with CLONECOPY_TEST_FRESH_SOURCES=unguarded: no source counts as fresh.</summary>
    private readonly bool _guardsFreshSources;

    /// <summary>Whether the environment leaves the mitigation on (anything but "unguarded").</summary>
    public static bool GuardsFreshSources(CopyEnvironment environment) =>
        !string.Equals(environment.Variable(FreshSourcesVariable), "unguarded", StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// True when the source's data may still be only in the cache: it carries FILE_ATTRIBUTE_TEMPORARY ("Lazy writers do
    /// not flush temporary files", File Caching: its age says nothing), or it changed within <see cref="FreshSourceTicks"/>
    /// (or in the future); and it is not a file known to be on the volume at its present identity. No call.
    /// </summary>
    private bool IsFresh(string source, Win32FileAllInformation sourceInfo)
    {
        if (!_guardsFreshSources)
        {
            return false;
        }

        long latest = Math.Max(sourceInfo.Times.ChangeTime, sourceInfo.Times.LastWriteTime);
        bool mayBeCached = (sourceInfo.Attributes & Win32.FileAttributeTemporary) != 0
            || DateTime.UtcNow.ToFileTimeUtc() - latest < FreshSourceTicks;
        return mayBeCached && !(_onVolume.TryGetValue(source, out DataIdentity known) && known == DataIdentity.Of(sourceInfo));
    }

    private void RememberOnVolume(string path, DataIdentity identity) => _onVolume[path] = identity;

    /// <summary>
    /// Takes the mutex of <paramref name="from"/>'s file: <c>Local\CloneCopy-&lt;volume serial&gt;-&lt;file ID&gt;</c>, from
    /// FILE_ID_INFO (the 128-bit ID: ReFS's 64-bit index is not unique), so every name of one file (hard links, 8.3 and
    /// subst spellings) meets the same mutex. Five calls: the ID, CreateMutexW, the wait (more only while another clone
    /// holds it), and later ReleaseMutex and CloseHandle (<see cref="CloneLease"/>). Null when any step fails or the wait
    /// runs out: the clone goes on alone, read back whole as every clone of a fresh source is.
    /// <para>
    /// Local\, the session's namespace (Kernel Object Namespaces: "each session has a separate namespace"; "Local\" names
    /// it explicitly): every process of a build runs in the session of whoever started it (MSBuild's nodes and its server
    /// are the entry process's children; a service's builds all run in session 0), so Local\ reaches them all and needs
    /// no privilege. Global\ would also reach builds of other sessions, but a mutex another user created there with
    /// default security refuses this user's open (ERROR_ACCESS_DENIED, CreateMutexW) and the global names are every
    /// session's to take; two sessions cloning one fresh file at the same moment are left to the whole read-back. In
    /// session 0 (a build agent's service) Local\ is the global namespace ("Service applications use the global namespace
    /// by default", Kernel Object Namespaces), shared with every service of any account: a name another account's build
    /// took refuses this open (ERROR_ACCESS_DENIED), and the clone goes on alone, read back whole.
    /// </para>
    /// </summary>
    private CloneLease? SerializeClonesOf(SafeFileHandle from, CancellationToken cancellation)
    {
        if (_calls.GetFileId(from, out Win32FileId id) != 0)
        {
            return null;
        }

        string name = string.Format(CultureInfo.InvariantCulture, @"Local\CloneCopy-{0:x16}-{1:x16}{2:x16}", id.VolumeSerialNumber, id.IdHigh, id.IdLow);
        if (_calls.CreateMutex(name, out SafeWaitHandle mutex) != 0)
        {
            return null;
        }

        bool owned = false;
        try
        {
            for (int slept = 0; slept < SerializedCloneWaitMilliseconds; slept += WaitSliceMilliseconds)
            {
                cancellation.ThrowIfCancellationRequested();
                int waited = _calls.WaitForMutex(mutex, WaitSliceMilliseconds);

                // WAIT_ABANDONED is ownership too (Mutex Objects): a process killed while one of its clones held the
                // mutex hands it to the next waiter. The clusters that clone may have left half-made are its own file's.
                if (waited is 0 or Win32.WaitAbandoned)
                {
                    owned = true;
                    return new CloneLease(_calls, mutex);
                }

                if (waited != Win32.WaitTimeout)
                {
                    return null; // WAIT_FAILED: the clone goes on alone
                }
            }

            return null;
        }
        finally
        {
            if (!owned)
            {
                _calls.CloseMutex(mutex);
            }
        }
    }

    /// <summary>
    /// After a rename of a file this cloner recorded (CloneCopyAtomicReplace's temporary file taking the destination's
    /// name): its records follow it, with the identity it has now (a rename moves ChangeTime: FILE_BASIC_INFO, "changes to
    /// file metadata, such as renames"), read through <paramref name="renamed"/>, the handle that renamed it: by the final
    /// name, the file found could already be another node's copy of the same output (a double write: same last write
    /// time, same length), its data through the cache, taken for this clone whose data is on the volume. One call
    /// (FileAllInformation), only for such a file. After MoveFileEx (<paramref name="renamed"/> null) nothing is recorded
    /// under the final name: that file is fresh by its times again.
    /// </summary>
    public void Renamed(string from, string to, SafeFileHandle? renamed)
    {
        _onVolume.TryRemove(to, out _); // whatever was known there was another file
        bool recorded = _onVolume.TryRemove(from, out DataIdentity before);
        bool seeds = false;
        foreach (Seed seed in _seeds.Values)
        {
            seeds |= string.Equals(seed.Path, from, StringComparison.OrdinalIgnoreCase);
        }

        if ((!recorded && !seeds) || renamed is null || _calls.QueryAllInformation(renamed, out Win32FileAllInformation now) != 0)
        {
            return;
        }

        // The same data as before the rename (its length and last write time), else someone wrote it meanwhile: forgotten.
        if (recorded && before.LastWriteTime == now.Times.LastWriteTime && before.EndOfFile == now.EndOfFile)
        {
            RememberOnVolume(to, DataIdentity.Of(now));
        }

        foreach (var entry in _seeds)
        {
            Seed seed = entry.Value;
            if (string.Equals(seed.Path, from, StringComparison.OrdinalIgnoreCase)
                && seed.Copy.IndexNumber == now.IndexNumber && seed.Copy.LastWriteTime == now.Times.LastWriteTime && seed.Copy.EndOfFile == now.EndOfFile)
            {
                _seeds.TryUpdate(entry.Key, seed with { Path = to, Copy = FileIdentity.Of(now) }, seed);
            }
        }
    }

    /// <summary>
    /// Flushes a copy CloneCopy itself has just written (the copy made at the link limit, which becomes a seed) through a
    /// short-lived writable handle (three calls). False when the open or the flush is refused. Sharing everything, so
    /// that a reader opening it meanwhile is not refused for our sake.
    /// </summary>
    private bool FlushedOwnCopy(string path)
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

    /// <summary>What says a file's data is the data it had: any write, truncation, attribute change or rename moves one of these.</summary>
    private readonly record struct DataIdentity(long ChangeTime, long LastWriteTime, long EndOfFile)
    {
        public static DataIdentity Of(Win32FileAllInformation information) =>
            new(information.Times.ChangeTime, information.Times.LastWriteTime, information.EndOfFile);
    }

    /// <summary>
    /// The mutex of a fresh source, owned by the thread that cloned: <see cref="Release"/> right after the clone FSCTLs
    /// (so read-backs run in parallel), <see cref="Dispose"/> at the end of the attempt whatever happened. Both on the
    /// owning thread: a mutex is released by its owner only (ReleaseMutex).
    /// </summary>
    private sealed class CloneLease : IDisposable
    {
        private readonly IWindowsSystemCalls _calls;
        private readonly SafeWaitHandle _mutex;
        private bool _held = true;

        public CloneLease(IWindowsSystemCalls calls, SafeWaitHandle mutex)
        {
            _calls = calls;
            _mutex = mutex;
        }

        public void Release()
        {
            if (_held)
            {
                _held = false;
                _calls.ReleaseMutex(_mutex);
            }
        }

        public void Dispose()
        {
            Release();
            _calls.CloseMutex(_mutex);
        }
    }
}
