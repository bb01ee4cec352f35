using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// Marks, in Sdk.targets, that a stage with a summary of its own begins in this project build (Publish,
/// Pack): its copies are then counted for that summary instead of each reporting itself after Build's.
/// </summary>
#if CLONECOPY_MULTITHREADED
// Runs in MSBuild's process under -mt, beside the Copy calls whose statistics it reads (see Copy.MultiThreaded.cs).
[MSBuildMultiThreadableTask]
#endif
public sealed class CloneCopyStage : Microsoft.Build.Utilities.Task
{
    [Required]
    public string Stage { get; set; } = string.Empty;

    public override bool Execute()
    {
        if (ProjectBuildIdentity.Identify(BuildEngine, CloneCopyText.Format(CloneCopyText.IdentifyingStage, Stage)) is int id)
        {
            BuildStatistics.ForProject(BuildEngine, id)?.BeginStage(Stage);
        }

        return true;
    }
}
