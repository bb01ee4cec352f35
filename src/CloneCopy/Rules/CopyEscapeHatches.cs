using System;

namespace CloneCopy;

/// <summary>
/// The environment variables MSBuild's Copy honours, read once per task invocation. Same names and
/// meanings, and the same test of each value as MSBuild's (Copy.cs and Traits.cs, 18.9), so a build that
/// relies on one behaves the same with CloneCopy: MSBUILDALWAYSOVERWRITEREADONLYFILES, MSBUILDALWAYSRETRY
/// and MSBuildUseSymboliclinksIfPossible count when present at all, even empty; MSBUILDCOPYWITHOUTDELETE
/// only when it is exactly "1". Read where MSBuild's Copy reads them: those three from the task's environment
/// (the project's TaskEnvironment under -mt), the other two from the process (MSBuild's process-wide Traits).
/// </summary>
internal sealed class CopyEscapeHatches
{
    private CopyEscapeHatches()
    {
    }

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

    public static CopyEscapeHatches FromEnvironment(CopyEnvironment task) => new()
    {
        AlwaysOverwriteReadOnlyFiles = IsPresent("MSBUILDALWAYSOVERWRITEREADONLYFILES", task),
        AlwaysRetry = IsPresent("MSBUILDALWAYSRETRY", task),
        UseSymbolicLinksByDefault = IsPresent("MSBuildUseSymboliclinksIfPossible", task),
        CopyWithoutDelete = CopyEnvironment.Process.Variable("MSBUILDCOPYWITHOUTDELETE") == "1",
        Parallelism = ReadParallelism(),
    };

    /// <summary>6 copy threads on machines with more than 4 logical cores, else 4: MSBuild's default.</summary>
    public static int DefaultParallelism => Environment.ProcessorCount > 4 ? 6 : 4;

    /// <summary>Present with any value, "" included (a Unix process can be given an empty variable; Windows drops it).</summary>
    private static bool IsPresent(string name, CopyEnvironment environment) => environment.Variable(name) is not null;

    private static int ReadParallelism()
    {
        string? value = Environment.GetEnvironmentVariable("MSBUILDCOPYTASKPARALLELISM");
        return int.TryParse(value, out int parsed) && parsed > 0 ? parsed : DefaultParallelism;
    }
}
