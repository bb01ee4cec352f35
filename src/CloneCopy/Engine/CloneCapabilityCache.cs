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
/// <remarks>A build meets a handful of volume pairs: the verdicts are kept in <see cref="PerVolume{TVolume, TValue}"/>.</remarks>
internal sealed class CloneCapabilityCache<TVolumes>
    where TVolumes : IEquatable<TVolumes>
{
    private readonly PerVolume<TVolumes, Verdict> _verdicts = new();
    private long _attempts;

    /// <summary>Number of clone attempts made because no negative verdict was cached (a probe count).</summary>
    public long Attempts => Interlocked.Read(ref _attempts);

    /// <summary>True, with the reason, when cloning between these volumes is known to be impossible.</summary>
    public bool IsKnownImpossible(TVolumes volumes, out NotClonedReason reason)
    {
        _verdicts.TryGet(volumes, out Verdict? verdict);
        reason = verdict?.Impossible ?? NotClonedReason.None;
        return verdict?.Impossible is not null;
    }

    public void CountAttempt() => Interlocked.Increment(ref _attempts);

    public void RememberImpossible(TVolumes volumes, NotClonedReason reason) => _verdicts.Set(volumes, new Verdict(reason, possible: false));

    /// <summary>True when a probe of these volumes said cloning is worth trying.</summary>
    public bool IsKnownPossible(TVolumes volumes) => _verdicts.TryGet(volumes, out Verdict? verdict) && verdict.Possible;

    public void RememberPossible(TVolumes volumes) => _verdicts.Set(volumes, new Verdict(null, possible: true));

    /// <summary>Forgets every verdict (a new build on a reused node: volumes may have changed since).</summary>
    public void Clear() => _verdicts.Clear();

    private sealed class Verdict
    {
        public Verdict(NotClonedReason? impossible, bool possible)
        {
            Impossible = impossible;
            Possible = possible;
        }

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

    /// <summary>
    /// The destination's filesystem by its device's major:minor, as /proc/self/mountinfo and `stat -c %Hd:%Ld` show it,
    /// for a warning. The devices are statx's: the major in the high 32 bits, the minor in the low.
    /// </summary>
    public override string ToString() => $"the filesystem of device {DestinationDevice >> 32}:{DestinationDevice & 0xFFFFFFFF}";
}
