using System.Collections.Generic;

namespace CloneCopy.Engine;

/// <summary>A fact about cloning that the user should hear once per build, not once per file.</summary>
internal sealed record EngineDiagnostic(EngineDiagnosticKind Kind, string Subject, string Detail);

internal enum EngineDiagnosticKind
{
    /// <summary>Setting up cloning failed (factory, volume enumeration, libc): cloning is off in this process.</summary>
    CloningUnavailable,

    /// <summary>Probing one volume failed: cloning is off for it.</summary>
    VolumeProbeFailed,

    /// <summary>A source block reached the filesystem's reference limit: a full copy was made instead.</summary>
    LinkLimitReached,

    /// <summary>A clone read back differed from its source: rewritten by a plain copy, no more clones on that volume this build.</summary>
    CloneReadBackDiffered,
}

/// <summary>
/// Collects diagnostics from the engine for the task to log with CloneCopy's codes; the engine itself never
/// logs (it knows nothing of MSBuild). A diagnostic already waiting is not queued twice, so a failure seen
/// on every file costs one entry; the task decides what has been said in this build.
/// </summary>
internal sealed class EngineDiagnostics
{
    // Made on the first report (most builds have none), and of reference types only: a fresh MSBuild node
    // compiles nothing for them before its first copy.
    private readonly object _lock = new();
    private HashSet<string>? _pendingKeys;
    private Queue<EngineDiagnostic>? _pending;

    public void Report(EngineDiagnosticKind kind, string subject, string detail)
    {
        lock (_lock)
        {
            _pendingKeys ??= new HashSet<string>();
            _pending ??= new Queue<EngineDiagnostic>();
            if (_pendingKeys.Add(Key(kind, subject)))
            {
                _pending.Enqueue(new EngineDiagnostic(kind, subject, detail));
            }
        }
    }

    public bool TryTake(out EngineDiagnostic diagnostic)
    {
        lock (_lock)
        {
            if (_pending is { Count: > 0 })
            {
                diagnostic = _pending.Dequeue();
                _pendingKeys!.Remove(Key(diagnostic.Kind, diagnostic.Subject));
                return true;
            }
        }

        diagnostic = null!;
        return false;
    }

    private static string Key(EngineDiagnosticKind kind, string subject) => $"{kind}|{subject}";
}
