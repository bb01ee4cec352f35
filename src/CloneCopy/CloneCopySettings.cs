using System;
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// Hands the project's CloneCopy properties to the Copy tasks of this project build (Copy is called by
/// MSBuild's own targets, with MSBuild's parameters only). Runs first in each project build (Sdk.targets'
/// InitialTargets), and only when a setting is on.
/// </summary>
#if CLONECOPY_MULTITHREADED
// Runs in MSBuild's process under -mt, beside the Copy calls whose statistics it reads (see Copy.MultiThreaded.cs).
[MSBuildMultiThreadableTask]
#endif
public sealed class CloneCopySettings : Microsoft.Build.Utilities.Task
{
    /// <summary>$(CloneCopyClonesInsteadOfLinks): "true" to clone where MSBuild's targets ask for links and the pair can clone.</summary>
    public string? ClonesInsteadOfLinks { get; set; }

    public override bool Execute()
    {
        if (ProjectBuildIdentity.Identify(BuildEngine, CloneCopyText.IdentifyingSettings) is int id
            && BuildStatistics.ForProject(BuildEngine, id) is BuildStatistics.ProjectBuild build)
        {
            build.ClonesInsteadOfLinks = string.Equals(ClonesInsteadOfLinks?.Trim(), "true", StringComparison.OrdinalIgnoreCase);
        }

        return true;
    }
}
