using System;
using System.Collections.Generic;

namespace CloneCopy;

/// <summary>
/// The environment variables MSBuild's Copy honours, read once per task invocation. Same names and
/// meanings, and the same test of each value as MSBuild's (Copy.cs and Traits.cs, 18.9), so a build that
/// relies on one behaves the same with CloneCopy: MSBUILDALWAYSOVERWRITEREADONLYFILES, MSBUILDALWAYSRETRY
/// and MSBuildUseSymboliclinksIfPossible count when present at all, even empty; MSBUILDCOPYWITHOUTDELETE
/// only when it is exactly "1". Read where MSBuild's Copy reads them: those three from the task's environment
/// (the project's TaskEnvironment under -mt), the other two from the process (MSBuild's process-wide Traits).
/// <para>
/// The one route: Copy reads them once per call into this object and every rule asks it. <see cref="Variables"/>
/// is the one list of their names: the differential lanes take it from the test binary
/// (<c>CloneCopy.Tests --escape-hatch-lanes</c>), so adding a variable is an edit here plus its scenarios.
/// </para>
/// </summary>
internal sealed class CopyEscapeHatches
{
    public const string AlwaysOverwriteReadOnlyFilesVariable = "MSBUILDALWAYSOVERWRITEREADONLYFILES";
    public const string AlwaysRetryVariable = "MSBUILDALWAYSRETRY";
    public const string UseSymbolicLinksVariable = "MSBuildUseSymboliclinksIfPossible";
    public const string CopyWithoutDeleteVariable = "MSBUILDCOPYWITHOUTDELETE";
    public const string ParallelismVariable = "MSBUILDCOPYTASKPARALLELISM";

    private CopyEscapeHatches()
    {
    }

    /// <summary>Every escape hatch of MSBuild's Copy CloneCopy honours, by its environment variable's name.</summary>
    public static IReadOnlyList<string> Variables { get; } =
        [CopyWithoutDeleteVariable, AlwaysRetryVariable, AlwaysOverwriteReadOnlyFilesVariable, UseSymbolicLinksVariable, ParallelismVariable];

    /// <summary>MSBUILDALWAYSOVERWRITEREADONLYFILES: treat OverwriteReadOnlyFiles as true.</summary>
    public bool AlwaysOverwriteReadOnlyFiles { get; private set; }

    /// <summary>MSBUILDALWAYSRETRY: retry even failures that are normally final (access denied on Windows).</summary>
    public bool AlwaysRetry { get; private set; }

    /// <summary>MSBuildUseSymboliclinksIfPossible: the default of UseSymboliclinksIfPossible when the project does not set it.</summary>
    public bool UseSymbolicLinksByDefault { get; private set; }

    /// <summary>MSBUILDCOPYWITHOUTDELETE: do not delete an existing destination before writing it.</summary>
    public bool CopyWithoutDelete { get; private set; }

    /// <summary>MSBUILDCOPYTASKPARALLELISM: 1 runs every copy on the calling thread; unset means the default.</summary>
    public int Parallelism { get; private set; }

    public static CopyEscapeHatches FromEnvironment(CopyEnvironment task) => FromEnvironment(task, RunningMSBuild.Current);

    /// <remarks>
    /// Before MSBuild 18.7 (dotnet/msbuild #13466) its Copy read MSBUILDALWAYSRETRY and MSBuildUseSymboliclinksIfPossible
    /// once per process, into statics, from the process's environment; from 18.7 on, in every Execute from the task's
    /// environment. Under an older MSBuild CloneCopy reads them once per process as well (at its first Copy), so a
    /// variable changed during a build changes nothing there either.
    /// </remarks>
    public static CopyEscapeHatches FromEnvironment(CopyEnvironment task, RunningMSBuild msbuild)
    {
        bool perCall = msbuild.Has(RunningMSBuild.EscapeHatchesReadInExecute);
        return new()
        {
            AlwaysOverwriteReadOnlyFiles = IsPresent(AlwaysOverwriteReadOnlyFilesVariable, task),
            AlwaysRetry = perCall ? IsPresent(AlwaysRetryVariable, task) : OncePerProcess.Value.AlwaysRetry,
            UseSymbolicLinksByDefault = perCall ? IsPresent(UseSymbolicLinksVariable, task) : OncePerProcess.Value.UseSymbolicLinks,
            CopyWithoutDelete = CopyEnvironment.Process.Variable(CopyWithoutDeleteVariable) == "1" || !DeletesBeforeWriting(msbuild),
            Parallelism = ReadParallelism(),
        };
    }

    /// <summary>
    /// MSBuild 17.8 to 17.11 delete an existing writable destination before writing it only while change wave 17.8 is on
    /// (MSBUILDDISABLEFEATURESFROMVERSION=17.8 or lower turns it off); 17.12 retired the wave and always deletes.
    /// </summary>
    private static bool DeletesBeforeWriting(RunningMSBuild msbuild) =>
        DeletesBeforeWriting(msbuild, () => MSBuildChangeWaves.AreFeaturesEnabled(MSBuildChangeWaves.Wave17_8));

    /// <param name="wave17_8">Asked only of an MSBuild before 17.12 (a test answers it for another MSBuild's waves).</param>
    internal static bool DeletesBeforeWriting(RunningMSBuild msbuild, Func<bool> wave17_8) =>
        msbuild.Has(RunningMSBuild.DeleteBeforeWriteAlways) || wave17_8();

    /// <summary>The two variables an MSBuild before 18.7 reads once per process, as the process held them at the first Copy.</summary>
    private static readonly Lazy<(bool AlwaysRetry, bool UseSymbolicLinks)> OncePerProcess =
        new(() => (IsPresent(AlwaysRetryVariable, CopyEnvironment.Process), IsPresent(UseSymbolicLinksVariable, CopyEnvironment.Process)));

    /// <summary>
    /// True when one of them changes what MSBuild's Copy logs or does (a thread count of 1 runs every copy on the
    /// calling thread, in order; other counts change only the speed).
    /// </summary>
    public bool AnyChangesBehaviour => AlwaysOverwriteReadOnlyFiles || AlwaysRetry || UseSymbolicLinksByDefault || CopyWithoutDelete || Parallelism == 1;

    /// <summary>6 copy threads on machines with more than 4 logical cores, else 4: MSBuild's default.</summary>
    public static int DefaultParallelism => Environment.ProcessorCount > 4 ? 6 : 4;

    /// <summary>Present with any value, "" included (a Unix process can be given an empty variable; Windows drops it).</summary>
    private static bool IsPresent(string name, CopyEnvironment environment) => environment.Variable(name) is not null;

    private static int ReadParallelism()
    {
        string? value = CopyEnvironment.Process.Variable(ParallelismVariable);
        return int.TryParse(value, out int parsed) && parsed > 0 ? parsed : DefaultParallelism;
    }
}
