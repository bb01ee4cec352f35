using System.Collections.Concurrent;

namespace CloneCopy.Engine;

/// <summary>A fact about cloning that the user should hear once per build, not once per file.</summary>
internal readonly record struct EngineDiagnostic(EngineDiagnosticKind Kind, string Subject, string Detail);

internal enum EngineDiagnosticKind
{
    /// <summary>Setting up cloning failed (factory, volume enumeration, libc): cloning is off in this process.</summary>
    CloningUnavailable,

    /// <summary>Probing one volume failed: cloning is off for it.</summary>
    VolumeProbeFailed,

    /// <summary>A source block reached the filesystem's reference limit: a full copy was made instead.</summary>
    LinkLimitReached,
}

/// <summary>
/// Collects diagnostics from the engine for the task to log with CloneCopy's codes; the engine itself never
/// logs (it knows nothing of MSBuild). A diagnostic already waiting is not queued twice, so a failure seen
/// on every file costs one entry; the task decides what has been said in this build.
/// </summary>
internal sealed class EngineDiagnostics
{
    private readonly ConcurrentDictionary<(EngineDiagnosticKind, string), bool> _pendingKeys = new();
    private readonly ConcurrentQueue<EngineDiagnostic> _pending = new();

    public void Report(EngineDiagnosticKind kind, string subject, string detail)
    {
        if (_pendingKeys.TryAdd((kind, subject), true))
        {
            _pending.Enqueue(new EngineDiagnostic(kind, subject, detail));
        }
    }

    public bool TryTake(out EngineDiagnostic diagnostic)
    {
        if (_pending.TryDequeue(out diagnostic))
        {
            _pendingKeys.TryRemove((diagnostic.Kind, diagnostic.Subject), out _);
            return true;
        }

        return false;
    }
}
