using System;
using System.Collections.Concurrent;
using System.IO;
using System.Linq;
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// Runs at the end of Build, of Publish and of Pack in each project build (Sdk.targets) and says, in one
/// high-importance line, what that project's Copy calls did since the last such line; then the
/// diagnostics that need the project's settings: a package cache on another volume (CLC004), and the CI
/// guard CloneCopyRequireClones (CLC005; a value it does not know is CLC006).
/// </summary>
#if CLONECOPY_MULTITHREADED
// Runs in MSBuild's process under -mt, beside the Copy calls whose statistics it reads (see Copy.MultiThreaded.cs).
[MSBuildMultiThreadableTask]
#endif
public sealed class CloneCopySummary : Microsoft.Build.Utilities.Task
{
    private const string PackageCacheSaidKey = "CloneCopy.PackageCacheDiagnosticSaid";

    /// <summary>$(NuGetPackageRoot): where package assemblies are copied from.</summary>
    public string? NuGetPackageRoot { get; set; }

    /// <summary>$(MSBuildProjectName), named at the end of the line: in a parallel build's log the lines interleave.</summary>
    public string? ProjectName { get; set; }

    /// <summary>$(TargetFramework) where the project has several (Sdk.targets passes it only then), named beside the project.</summary>
    public string? TargetFramework { get; set; }

    /// <summary>Which part of the project build the line covers: Build (said plainly), Publish or Pack.</summary>
    public string? Stage { get; set; }

    /// <summary>$(CloneCopyRequireClones): see <see cref="RequireClonesSetting"/>.</summary>
    public string? RequireClones { get; set; }

    public override bool Execute()
    {
        // A mistyped guard must fail the build even where everything clones, or CI would never notice it.
        if (!RequireClonesSetting.TryParse(RequireClones, out RequireClonesMode guard))
        {
            TaskLog.Error(Log, CloneCopyCodes.InvalidSetting, CloneCopyText.Format(CloneCopyText.InvalidRequireClones, RequireClones, RequireClonesSetting.ValidValues));
            return false;
        }

        int? project = ProjectBuildIdentity.Identify(BuildEngine, CloneCopyText.IdentifyingSummary);
        string label = string.IsNullOrEmpty(TargetFramework) ? ProjectName ?? string.Empty : $"{ProjectName} {TargetFramework}";
        bool buildStage = string.IsNullOrEmpty(Stage) || string.Equals(Stage, "Build", StringComparison.OrdinalIgnoreCase);
        ProjectStatistics? statistics = project is int id ? BuildStatistics.ForProject(BuildEngine, id)?.TakeForSummary(label, buildStage ? "Build" : Stage!) : null;
        if (statistics is null)
        {
            // A host that does not say which project build a task runs in, or keeps nothing between tasks (a task
            // host process): this project's Copy calls reported themselves, and the guard cannot count them.
            // A CI that asked for the guard must hear that, not pass silently.
            ReportGuardCouldNotRun(guard);
            return !Log.HasLoggedErrors;
        }

        if (!statistics.DidAnything)
        {
            return true;
        }

        string stage = buildStage ? string.Empty : CloneCopyText.Format(CloneCopyText.SummaryStage, Stage);
        string projectName = label.Length == 0 ? string.Empty : CloneCopyText.Format(CloneCopyText.SummaryProject, label);
        TaskLog.Message(Log, MessageImportance.High, CloneCopyText.Format(CloneCopyText.SummaryLine, stage, statistics.Describe(), projectName));
        ReportPackageCacheElsewhere(statistics);
        EnforceRequireClones(statistics, guard);
        return !Log.HasLoggedErrors;
    }

    private void ReportPackageCacheElsewhere(ProjectStatistics statistics)
    {
        if (string.IsNullOrEmpty(NuGetPackageRoot) || statistics.Cloned == 0)
        {
            return;
        }

        // $(NuGetPackageRoot) is absolute: the process's directory, which under -mt is no project's, plays no part.
        string root = Path.GetFullPath(NuGetPackageRoot);
        string? fromCache = statistics.CrossVolumeSourceDirectories().FirstOrDefault(d => d.StartsWith(root.TrimEnd('/', '\\'), MSBuildPlatformRules.PathComparison));
        if (fromCache is null || !SayOncePerBuild(PackageCacheSaidKey))
        {
            return;
        }

        TaskLog.CodedMessage(Log, MessageImportance.High, CloneCopyCodes.PackageCacheOnOtherVolume,
            CloneCopyText.Format(CloneCopyText.PackageCacheOnAnotherVolume, root));
    }

    private void EnforceRequireClones(ProjectStatistics statistics, RequireClonesMode guard)
    {
        if (guard == RequireClonesMode.Off || statistics.NotCloned == 0)
        {
            return;
        }

        string text = CloneCopyText.Format(statistics.NotCloned == 1 ? CloneCopyText.GuardCopiedOne : CloneCopyText.GuardCopiedMany, statistics.NotCloned, string.Join("; ", statistics.NotClonedExamples()));
        if (guard == RequireClonesMode.Error)
        {
            TaskLog.Error(Log, CloneCopyCodes.CopiedInsteadOfCloned, text);
        }
        else
        {
            TaskLog.Warning(Log, CloneCopyCodes.CopiedInsteadOfCloned, text);
        }
    }

    private void ReportGuardCouldNotRun(RequireClonesMode guard)
    {
        if (guard == RequireClonesMode.Off)
        {
            return;
        }

        string text = CloneCopyText.Format(CloneCopyText.GuardCouldNotRun, string.IsNullOrEmpty(ProjectName) ? CloneCopyText.GuardThisProject : ProjectName);
        if (guard == RequireClonesMode.Error)
        {
            TaskLog.Error(Log, CloneCopyCodes.GuardCouldNotRun, text);
        }
        else
        {
            TaskLog.Warning(Log, CloneCopyCodes.GuardCouldNotRun, text);
        }
    }

    /// <summary>Once per build on this MSBuild node: nodes are separate processes that share nothing during a build.</summary>
    private bool SayOncePerBuild(string key) =>
        BuildScoped.GetOrCreate(BuildEngine, key, () => new ConcurrentDictionary<string, string>())?.TryAdd(key, key) ?? true;
}
