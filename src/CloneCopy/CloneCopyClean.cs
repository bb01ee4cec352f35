using System.IO;
using CloneCopy.Engine;
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// The clean step (Sdk.targets, after Clean: dotnet clean, Rebuild): removes CloneCopyAtomicReplace's temporary files
/// that processes now gone left under the project's output and intermediate folders, whoever's they were, and takes
/// the build's look at the records of killed processes if no Copy took it yet (<see cref="AbandonedReplacements"/>).
/// A temporary file of a process still running (another project's Copy in a parallel build) stays. Not after
/// IncrementalClean, which runs in every build: listing the whole output tree there would cost every build a walk.
/// </summary>
#if CLONECOPY_MULTITHREADED
// Runs in MSBuild's process under -mt: it reads nothing of the process's environment or folder (its folders come as full paths).
[MSBuildMultiThreadableTask]
#endif
public sealed class CloneCopyClean : Microsoft.Build.Utilities.Task
{
    /// <summary>Full paths of the folders to look under ($(OutDir), $(IntermediateOutputPath) made full by Sdk.targets).</summary>
    public string[] Folders { get; set; } = [];

    public override bool Execute()
    {
        if (BuildScoped.GetOrCreate(BuildEngine, Copy.VolumeVerdictsKey, () => new BuildVerdicts())?.FirstToLookForAbandonedReplacements() ?? AbandonedReplacements.FirstLookOfThisProcess())
        {
            AbandonedReplacements.RemoveAfterDeadProcesses();
        }

        // The build's set, as Copy's: a solution's projects that share one output folder each name it, and it is walked once per build and node.
        CleanedFolders cleaned = BuildScoped.GetOrCreate(BuildEngine, Copy.CleanedFoldersKey, () => new CleanedFolders()) ?? new CleanedFolders();
        foreach (string folder in Folders)
        {
            if (!string.IsNullOrWhiteSpace(folder) && Path.IsPathRooted(folder) && Directory.Exists(folder))
            {
                AbandonedReplacements.RemoveUnder(folder, cleaned);
            }
        }

        return true;
    }
}
