#if NET
using CloneCopy.Engine;
using CloneCopy.Platform.Portable;
using CloneCopy.Platform.Unix;

namespace CloneCopy.Platform.MacOS;

/// <summary>
/// macOS: paths probed with lstat (and stat for a link), files cloned with clonefile, else File.Copy
/// (<see cref="ClonerTransfer"/>); links and identity as on every Unix.
/// </summary>
internal sealed class MacOSPlatform : UnixPlatform
{
    public MacOSPlatform(EngineDiagnostics diagnostics)
        : base(new ClonerTransfer(() => new MacCloneFileCloner(GuardedDarwinCalls.Instance), diagnostics, unixModes: true))
    {
    }

    public override PathStatus Probe(string fullPath) =>
        MacPathProbe.Get(fullPath, GuardedDarwinCalls.Instance) ?? DotNetPathProbe.Get(fullPath);
}
#endif
