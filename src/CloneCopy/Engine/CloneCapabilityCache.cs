using System.Collections.Concurrent;
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
internal sealed class CloneCapabilityCache<TVolumes>
    where TVolumes : notnull
{
    private readonly ConcurrentDictionary<TVolumes, NotClonedReason> _impossible = new();
    private readonly ConcurrentDictionary<TVolumes, bool> _probedPossible = new();
    private long _attempts;

    /// <summary>Number of clone attempts made because no negative verdict was cached (a probe count).</summary>
    public long Attempts => Interlocked.Read(ref _attempts);

    /// <summary>True, with the reason, when cloning between these volumes is known to be impossible.</summary>
    public bool IsKnownImpossible(TVolumes volumes, out NotClonedReason reason) =>
        _impossible.TryGetValue(volumes, out reason);

    public void CountAttempt() => Interlocked.Increment(ref _attempts);

    public void RememberImpossible(TVolumes volumes, NotClonedReason reason) => _impossible[volumes] = reason;

    /// <summary>True when a probe of these volumes said cloning is worth trying.</summary>
    public bool IsKnownPossible(TVolumes volumes) => _probedPossible.ContainsKey(volumes);

    public void RememberPossible(TVolumes volumes) => _probedPossible[volumes] = true;
}

/// <summary>A (source device, destination device) pair, as Linux names volumes.</summary>
internal readonly record struct VolumePair(ulong SourceDevice, ulong DestinationDevice);
