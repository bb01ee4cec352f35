using System;
using System.Collections.Concurrent;
using System.IO;
using System.Linq;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// Runs once at the end of each project build (Sdk.targets, after Build) and says what that project's
/// Copy calls did, in one normal-importance line; then the diagnostics that need the project's settings:
/// a package cache on another volume (CLC004), and the CI guard CloneCopyRequireClones (CLC005).
/// </summary>
public sealed class CloneCopySummary : Microsoft.Build.Utilities.Task
{
    private const string PackageCacheSaidKey = "CloneCopy.PackageCacheDiagnosticSaid";

    /// <summary>$(NuGetPackageRoot): where package assemblies are copied from.</summary>
    public string? NuGetPackageRoot { get; set; }

    /// <summary>$(MSBuildProjectName), named at the end of the line: in a parallel build's log the lines interleave.</summary>
    public string? ProjectName { get; set; }

    /// <summary>$(CloneCopyRequireClones): empty (off), "warning" or "error".</summary>
    public string? RequireClones { get; set; }

    public override bool Execute()
    {
        int? project = ProjectContext.Identify(BuildEngine, "CloneCopy: summarising this project's copies");
        ProjectStatistics? statistics = project is int id ? BuildStatistics.Take(BuildEngine, id) : null;
        if (statistics is null || !statistics.DidAnything)
        {
            return true;
        }

        string projectName = string.IsNullOrEmpty(ProjectName) ? string.Empty : $" [{ProjectName}]";
        TaskLog.Message(Log, MessageImportance.Normal, $"CloneCopy: {statistics.Describe()}{projectName}");
        ReportPackageCacheElsewhere(statistics);
        EnforceRequireClones(statistics);
        return !Log.HasLoggedErrors;
    }

    private void ReportPackageCacheElsewhere(ProjectStatistics statistics)
    {
        if (string.IsNullOrEmpty(NuGetPackageRoot) || statistics.Cloned == 0)
        {
            return;
        }

        string root = Path.GetFullPath(NuGetPackageRoot);
        string? fromCache = statistics.CrossVolumeSourceDirectories().FirstOrDefault(d => d.StartsWith(root.TrimEnd('/', '\\'), PathComparison.Comparison));
        if (fromCache is null || !SayOncePerBuild(PackageCacheSaidKey))
        {
            return;
        }

        TaskLog.CodedMessage(Log, MessageImportance.High, CloneCopyCodes.PackageCacheOnOtherVolume,
            $"CloneCopy: this build's outputs can be cloned, but the NuGet package cache ({root}) is on another volume, so package assemblies are copied. Put the cache on the same volume as your repository (set NUGET_PACKAGES, or RestorePackagesPath in Directory.Build.props) to clone them too.");
    }

    private void EnforceRequireClones(ProjectStatistics statistics)
    {
        string mode = (RequireClones ?? string.Empty).Trim();
        if (mode.Length == 0 || statistics.NotCloned == 0)
        {
            return;
        }

        string text = $"CloneCopy: CloneCopyRequireClones is set, but {statistics.NotCloned} {(statistics.NotCloned == 1 ? "file was" : "files were")} copied instead of cloned, for example {string.Join("; ", statistics.NotClonedExamples())}.";
        if (string.Equals(mode, "error", StringComparison.OrdinalIgnoreCase))
        {
            TaskLog.Error(Log, CloneCopyCodes.CopiedInsteadOfCloned, text);
        }
        else if (string.Equals(mode, "warning", StringComparison.OrdinalIgnoreCase) || string.Equals(mode, "true", StringComparison.OrdinalIgnoreCase))
        {
            TaskLog.Warning(Log, CloneCopyCodes.CopiedInsteadOfCloned, text);
        }
        else
        {
            TaskLog.Warning(Log, CloneCopyCodes.CopiedInsteadOfCloned, $"CloneCopy: CloneCopyRequireClones='{mode}' is not 'warning' or 'error'; treating it as 'warning'. {text}");
        }
    }

    private bool SayOncePerBuild(string key) =>
        BuildScoped.GetOrCreate(BuildEngine, key, () => new ConcurrentDictionary<string, bool>())?.TryAdd(key, true) ?? true;
}
