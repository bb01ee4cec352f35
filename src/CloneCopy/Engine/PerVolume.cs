using System;
using System.Threading;

namespace CloneCopy.Engine;

/// <summary>
/// A value per volume (or pair of volumes), for the few volumes one build meets: read on every file without a lock,
/// written rarely. The entries are a small array replaced whole on each write. No framework collection over a value
/// type: a fresh MSBuild node would have to compile its generic code before its first copy (Linux keys are structs).
/// The capability verdicts (<see cref="CloneCapabilityCache{TVolumes}"/>) and the volumes read back
/// (<see cref="CloneVerifier{TVolume}"/>) keep their state here.
/// </summary>
internal sealed class PerVolume<TVolume, TValue>
    where TVolume : IEquatable<TVolume>
{
    private readonly object _writeLock = new();
    private Entry[] _entries = [];

    public bool TryGet(TVolume volume, out TValue value)
    {
        foreach (Entry entry in Volatile.Read(ref _entries))
        {
            if (entry.Volume.Equals(volume))
            {
                value = entry.Value;
                return true;
            }
        }

        value = default!;
        return false;
    }

    /// <summary>Adds or replaces the value of <paramref name="volume"/>.</summary>
    public void Set(TVolume volume, TValue value)
    {
        lock (_writeLock)
        {
            Entry[] current = _entries;
            int at = Array.FindIndex(current, e => e.Volume.Equals(volume));
            Entry[] next = new Entry[at < 0 ? current.Length + 1 : current.Length];
            Array.Copy(current, next, current.Length);
            next[at < 0 ? current.Length : at] = new Entry(volume, value);
            Volatile.Write(ref _entries, next);
        }
    }

    public void Clear()
    {
        lock (_writeLock)
        {
            Volatile.Write(ref _entries, []);
        }
    }

    private sealed class Entry
    {
        public Entry(TVolume volume, TValue value)
        {
            Volume = volume;
            Value = value;
        }

        public TVolume Volume { get; }

        public TValue Value { get; }
    }
}
