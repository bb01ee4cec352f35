using System.Collections.Generic;

namespace CloneCopy.BuildCompare;

/// <summary>What the user asked for, after the command line has been parsed and paths made absolute.</summary>
/// <param name="Target">The solution or project file to build.</param>
/// <param name="Runs">Timed clean builds each way (after one untimed warm-up each way).</param>
/// <param name="OutputDirectory">Where the report, JSON, chart, logs and the injected SDK go; never inside the repository.</param>
/// <param name="SdkSource">A CloneCopy .nupkg or an extracted package folder; null: the package bundled with the tool.</param>
/// <param name="BuildArguments">The user's own arguments, passed to every build unchanged and to the restore as <see cref="RestoreArguments"/> has them.</param>
/// <param name="Interactive">A terminal: live progress. Otherwise (CI, redirected output) one plain line per build.</param>
/// <param name="Force">Replace an earlier comparison in <paramref name="OutputDirectory"/> (see <see cref="OutputFolder"/>).</param>
public sealed record CompareOptions(
    string Target,
    int Runs,
    string OutputDirectory,
    string? SdkSource,
    IReadOnlyList<string> BuildArguments,
    bool Interactive,
    bool Force = false);
