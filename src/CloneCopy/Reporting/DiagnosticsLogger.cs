using System.Collections.Concurrent;
using CloneCopy.Engine;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// Logs the engine's diagnostics with CloneCopy's codes, each (kind, subject) once per build: the set of
/// what was said lives in a task object registered for the build's lifetime, so a reused MSBuild node
/// says it again in the next build.
/// </summary>
internal static class DiagnosticsLogger
{
    private const string SaidKey = "CloneCopy.DiagnosticsSaidInThisBuild";
    private static readonly ConcurrentDictionary<string, string> SaidWithoutEngineSupport = new();

    public static void Flush(IBuildEngine engine, TaskLoggingHelper log, EngineDiagnostics diagnostics)
    {
        ConcurrentDictionary<string, string>? said = null;
        while (diagnostics.TryTake(out EngineDiagnostic diagnostic))
        {
            said ??= SaidInThisBuild(engine);
            string key = $"{diagnostic.Kind}|{diagnostic.Subject}";
            if (said.TryAdd(key, key))
            {
                Log(engine, log, diagnostic);
            }
        }
    }

    private static void Log(IBuildEngine engine, TaskLoggingHelper log, EngineDiagnostic diagnostic)
    {
        switch (diagnostic.Kind)
        {
            case EngineDiagnosticKind.CloningUnavailable:
                Message(log, CloneCopyCodes.CloningUnavailable,
                    CloneCopyText.Format(CloneCopyText.CloningUnavailable, diagnostic.Detail));
                break;
            case EngineDiagnosticKind.VolumeProbeFailed:
                Message(log, CloneCopyCodes.VolumeProbeFailed,
                    CloneCopyText.Format(CloneCopyText.VolumeProbeFailed, diagnostic.Subject, diagnostic.Detail));
                break;
            case EngineDiagnosticKind.LinkLimitReached:
                string text = CloneCopyText.Format(CloneCopyText.LinkLimitReached, diagnostic.Subject, diagnostic.Subject.TrimEnd('\\'), diagnostic.Detail);
                // A warning, unless this build turns warnings into errors: a full copy is no reason to fail a build.
                if (engine is IBuildEngine8 engine8 && engine8.ShouldTreatWarningAsError(CloneCopyCodes.LinkLimitReached))
                {
                    Message(log, CloneCopyCodes.LinkLimitReached, text);
                }
                else
                {
                    TaskLog.Warning(log, CloneCopyCodes.LinkLimitReached, text);
                }

                break;
            case EngineDiagnosticKind.CloneReadBackDiffered:
                string readBack = CloneCopyText.Format(CloneCopyText.CloneReadBackDiffered, diagnostic.Subject, diagnostic.Detail);
                // As CLC003: the file was copied correctly, so warnings-as-errors must not fail a build MSBuild's Copy passes.
                if (engine is IBuildEngine8 readBackEngine && readBackEngine.ShouldTreatWarningAsError(CloneCopyCodes.CloneReadBackDiffered))
                {
                    Message(log, CloneCopyCodes.CloneReadBackDiffered, readBack);
                }
                else
                {
                    TaskLog.Warning(log, CloneCopyCodes.CloneReadBackDiffered, readBack);
                }

                break;
        }
    }

    private static void Message(TaskLoggingHelper log, string code, string text) =>
        TaskLog.CodedMessage(log, MessageImportance.High, code, text);

    private static ConcurrentDictionary<string, string> SaidInThisBuild(IBuildEngine engine) =>
        BuildScoped.GetOrCreate(engine, SaidKey, () => new ConcurrentDictionary<string, string>()) ?? SaidWithoutEngineSupport;
}
