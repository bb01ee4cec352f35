using System;
using System.Threading;

namespace CloneCopy.Engine;

/// <summary>
/// Remembers, per pair of volumes, that cloning between them was found impossible (or not worth doing, with
/// the reason); every platform's transfer chain keeps its verdicts here, keyed the way that platform names
/// volumes. Only definitive answers are cached ("this filesystem cannot clone", "these are different
/// filesystems", "probing this volume failed"): a refusal that depends on the file or the moment (EAGAIN,
/// EPERM, EINVAL, a sharing violation) is never cached, so one odd file cannot switch cloning off for the
/// rest of the build. A pair whose probe said "try" is remembered too, so it is probed once.
/// </summary>
/// <remarks>
/// A build meets a handful of volume pairs, so the verdicts are a small array, replaced whole on the rare
/// write and read without a lock: no framework collection over a value type, whose generic code a fresh
/// MSBuild node would have to compile before its first copy.
/// </remarks>
internal sealed class CloneCapabilityCache<TVolumes>
    where TVolumes : IEquatable<TVolumes>
{
    private readonly object _writeLock = new();
    private Verdict[] _verdicts = [];
    private long _attempts;

    /// <summary>Number of clone attempts made because no negative verdict was cached (a probe count).</summary>
    public long Attempts => Interlocked.Read(ref _attempts);

    /// <summary>True, with the reason, when cloning between these volumes is known to be impossible.</summary>
    public bool IsKnownImpossible(TVolumes volumes, out NotClonedReason reason)
    {
        Verdict? verdict = Find(volumes);
        reason = verdict?.Impossible ?? NotClonedReason.None;
        return verdict?.Impossible is not null;
    }

    public void CountAttempt() => Interlocked.Increment(ref _attempts);

    public void RememberImpossible(TVolumes volumes, NotClonedReason reason) => Remember(new Verdict(volumes, reason, possible: false));

    /// <summary>True when a probe of these volumes said cloning is worth trying.</summary>
    public bool IsKnownPossible(TVolumes volumes) => Find(volumes)?.Possible == true;

    public void RememberPossible(TVolumes volumes) => Remember(new Verdict(volumes, null, possible: true));

    /// <summary>Forgets every verdict (a new build on a reused node: volumes may have changed since).</summary>
    public void Clear()
    {
        lock (_writeLock)
        {
            Volatile.Write(ref _verdicts, []);
        }
    }

    private Verdict? Find(TVolumes volumes)
    {
        foreach (Verdict verdict in Volatile.Read(ref _verdicts))
        {
            if (verdict.Volumes.Equals(volumes))
            {
                return verdict;
            }
        }

        return null;
    }

    /// <summary>Adds or replaces the verdict for its pair of volumes.</summary>
    private void Remember(Verdict verdict)
    {
        lock (_writeLock)
        {
            Verdict[] current = _verdicts;
            int at = Array.FindIndex(current, v => v.Volumes.Equals(verdict.Volumes));
            Verdict[] next = new Verdict[at < 0 ? current.Length + 1 : current.Length];
            Array.Copy(current, next, current.Length);
            next[at < 0 ? current.Length : at] = verdict;
            Volatile.Write(ref _verdicts, next);
        }
    }

    private sealed class Verdict
    {
        public Verdict(TVolumes volumes, NotClonedReason? impossible, bool possible)
        {
            Volumes = volumes;
            Impossible = impossible;
            Possible = possible;
        }

        public TVolumes Volumes { get; }

        public NotClonedReason? Impossible { get; }

        public bool Possible { get; }
    }
}

/// <summary>A (source device, destination device) pair, as Linux names volumes.</summary>
internal readonly struct VolumePair : IEquatable<VolumePair>
{
    public VolumePair(ulong sourceDevice, ulong destinationDevice)
    {
        SourceDevice = sourceDevice;
        DestinationDevice = destinationDevice;
    }

    public ulong SourceDevice { get; }

    public ulong DestinationDevice { get; }

    public bool Equals(VolumePair other) => SourceDevice == other.SourceDevice && DestinationDevice == other.DestinationDevice;

    public override bool Equals(object? obj) => obj is VolumePair other && Equals(other);

    public override int GetHashCode() => (int)(SourceDevice ^ (DestinationDevice << 7));

    /// <summary>The destination's filesystem by its device's major:minor (as /proc/self/mountinfo shows it), for a warning.</summary>
    public override string ToString() =>
        $"the filesystem of device {DestinationDevice >> 8 & 0xfff | (DestinationDevice >> 32 & ~0xfffUL)}:{DestinationDevice & 0xff | (DestinationDevice >> 12 & ~0xffUL)}";
}
