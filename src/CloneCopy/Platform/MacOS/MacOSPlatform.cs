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
    private readonly IDarwinCalls _calls;

    public MacOSPlatform(EngineDiagnostics diagnostics)
        : this(diagnostics, GuardedDarwinCalls.Instance)
    {
    }

    /// <param name="calls">The system calls: libc's, guarded; a model of macOS over the host's files in tests (macOS is not among this project's machines).</param>
    internal MacOSPlatform(EngineDiagnostics diagnostics, IDarwinCalls calls)
        : base(new ClonerTransfer(() => new MacCloneFileCloner(calls), diagnostics, unixModes: true))
    {
        _calls = calls;
    }

    public override PathStatus Probe(string fullPath) =>
        MacPathProbe.Get(fullPath, _calls) ?? DotNetPathProbe.Get(fullPath);
}
#endif
