using System;

namespace CloneCopy;

/// <summary>
/// The environment variables MSBuild's Copy honours, read once per task invocation. Same names and
/// meanings, so a build that relies on one behaves the same with CloneCopy. Read where MSBuild's Copy reads
/// them: three from the task's environment (the project's TaskEnvironment under -mt), the other two from
/// the process (MSBuild takes those from its process-wide Traits).
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
        AlwaysOverwriteReadOnlyFiles = IsSet("MSBUILDALWAYSOVERWRITEREADONLYFILES", task),
        AlwaysRetry = IsSet("MSBUILDALWAYSRETRY", task),
        UseSymbolicLinksByDefault = IsSet("MSBuildUseSymboliclinksIfPossible", task),
        CopyWithoutDelete = IsSet("MSBUILDCOPYWITHOUTDELETE", CopyEnvironment.Process),
        Parallelism = ReadParallelism(),
    };

    /// <summary>6 copy threads on machines with more than 4 logical cores, else 4: MSBuild's default.</summary>
    public static int DefaultParallelism => Environment.ProcessorCount > 4 ? 6 : 4;

    private static bool IsSet(string name, CopyEnvironment environment) => !string.IsNullOrEmpty(environment.Variable(name));

    private static int ReadParallelism()
    {
        string? value = Environment.GetEnvironmentVariable("MSBUILDCOPYTASKPARALLELISM");
        return int.TryParse(value, out int parsed) && parsed > 0 ? parsed : DefaultParallelism;
    }
}
