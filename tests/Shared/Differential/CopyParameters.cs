using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// The parameters of one Copy invocation, independent of which task runs them. Item specs are relative
/// to the scenario's tree (the current directory while the task runs), like a project's items.
/// </summary>
public sealed class CopyParameters
{
    public string[]? SourceFiles { get; set; }

    public string[]? SourceFolders { get; set; }

    public string? DestinationFolder { get; set; }

    public string[]? DestinationFiles { get; set; }

    public int? Retries { get; set; }

    public int? RetryDelayMilliseconds { get; set; } = 10;

    public bool UseHardlinksIfPossible { get; set; }

    public bool UseSymboliclinksIfPossible { get; set; }

    public bool ErrorIfLinkFails { get; set; }

    public bool SkipUnchangedFiles { get; set; }

    public bool OverwriteReadOnlyFiles { get; set; }

    public bool FailIfNotIncremental { get; set; }

    /// <summary>Custom metadata put on every source item ("Kind" = "source-&lt;spec&gt;").</summary>
    public bool SourceMetadata { get; set; } = true;

    /// <summary>Custom metadata put on every DestinationFiles item, which the copy must not overwrite.</summary>
    public bool DestinationMetadata { get; set; } = true;

    /// <summary>Applies these parameters to a Copy task of either kind, by property name.</summary>
    public void ApplyTo(ITask task)
    {
        Set(task, nameof(SourceFiles), Items(SourceFiles, SourceMetadata ? "source" : null));
        Set(task, nameof(SourceFolders), Items(SourceFolders, SourceMetadata ? "folder" : null));
        Set(task, nameof(DestinationFolder), DestinationFolder is null ? null : new TaskItem(DestinationFolder));
        Set(task, nameof(DestinationFiles), Items(DestinationFiles, DestinationMetadata ? "destination" : null));
        if (Retries is not null)
        {
            Set(task, nameof(Retries), Retries.Value);
        }

        if (RetryDelayMilliseconds is not null)
        {
            Set(task, nameof(RetryDelayMilliseconds), RetryDelayMilliseconds.Value);
        }

        Set(task, nameof(UseHardlinksIfPossible), UseHardlinksIfPossible);
        if (UseSymboliclinksIfPossible)
        {
            // Only when asked, as a project sets it: a task that was never given it takes its default from
            // MSBuildUseSymboliclinksIfPossible (an explicit false would override the variable).
            Set(task, nameof(UseSymboliclinksIfPossible), true);
        }
        Set(task, nameof(ErrorIfLinkFails), ErrorIfLinkFails);
        Set(task, nameof(SkipUnchangedFiles), SkipUnchangedFiles);
        Set(task, nameof(OverwriteReadOnlyFiles), OverwriteReadOnlyFiles);
        Set(task, nameof(FailIfNotIncremental), FailIfNotIncremental);
    }

    private static ITaskItem[]? Items(string[]? specs, string? metadataPrefix) => specs?.Select(spec =>
    {
        var item = new TaskItem(spec);
        if (metadataPrefix is not null)
        {
            item.SetMetadata("Kind", $"{metadataPrefix}-{spec}");
            item.SetMetadata(metadataPrefix == "destination" ? "DestinationOnly" : "SourceOnly", "yes");
        }

        return (ITaskItem)item;
    }).ToArray();

    private static void Set(ITask task, string name, object? value)
    {
        var property = task.GetType().GetProperty(name) ?? throw new InvalidOperationException($"{task.GetType()} has no {name}");
        property.SetValue(task, value);
    }
}

/// <summary>What a Copy run returned and logged, in a form two runs can be compared by.</summary>
public sealed record CopyRunResult(
    bool Succeeded,
    bool WroteAtLeastOneFile,
    string DestinationFiles,
    string CopiedFiles,
    string ErrorCodes,
    string WarningCodes,
    string Events,
    string DirectoryCreations)
{
    private static readonly HashSet<string> WellKnownMetadata = new(StringComparer.OrdinalIgnoreCase)
    {
        "FullPath", "RootDir", "Filename", "Extension", "RelativeDir", "Directory", "RecursiveDir", "Identity",
        "ModifiedTime", "CreatedTime", "AccessedTime", "DefiningProjectFullPath", "DefiningProjectDirectory",
        "DefiningProjectName", "DefiningProjectExtension",
    };

    /// <param name="root">The scenario's tree, written as "&lt;root&gt;" in event texts so two trees compare.</param>
    public static CopyRunResult From(ITask task, bool succeeded, Infrastructure.TestBuildEngine engine, string root)
    {
        var type = task.GetType();
        return new CopyRunResult(
            succeeded,
            (bool)type.GetProperty("WroteAtLeastOneFile")!.GetValue(task)!,
            DescribeItems((ITaskItem[]?)type.GetProperty("DestinationFiles")!.GetValue(task)).Replace(root, "<root>", StringComparison.Ordinal),
            DescribeItems((ITaskItem[]?)type.GetProperty("CopiedFiles")!.GetValue(task)).Replace(root, "<root>", StringComparison.Ordinal),
            string.Join(",", engine.Errors.Select(e => e.Code ?? "(none)").Order()),
            string.Join(",", engine.Warnings.Select(w => w.Code ?? "(none)").Order()),
            string.Join(Environment.NewLine, AllEvents(engine, root).Where(e => !IsDirectoryCreation(e)).Order(StringComparer.Ordinal)),
            string.Join(Environment.NewLine, AllEvents(engine, root).Where(IsDirectoryCreation).Distinct().Order(StringComparer.Ordinal)));
    }

    private static IEnumerable<string> AllEvents(Infrastructure.TestBuildEngine engine, string root) =>
        engine.MSBuildComparableEvents().Select(e => Infrastructure.EventText.Verbatim(e, root));

    /// <summary>
    /// "Creating directory" is compared apart (see <see cref="DifferentialRunner"/>): MSBuild's Copy threads
    /// race to create a new folder, so which folders it names, and how often, changes from run to run.
    /// </summary>
    public static bool IsDirectoryCreation(string verbatimEvent) => verbatimEvent.Contains("|" + CreatesDirectoryText, StringComparison.Ordinal);

    /// <summary>"Creating directory \"" in the UI culture's language, from MSBuild's own resources.</summary>
    private static string CreatesDirectoryText { get; } = new System.Resources.ResourceManager("Microsoft.Build.Tasks.Core.Strings", typeof(Microsoft.Build.Tasks.Copy).Assembly)
        .GetString("Copy.CreatesDirectory", System.Globalization.CultureInfo.CurrentUICulture)!.Split("{0}")[0];

    /// <summary>Item specs in order with their custom metadata, or "null" for an output never set.</summary>
    private static string DescribeItems(ITaskItem[]? items) => items is null
        ? "null"
        : "[" + string.Join(", ", items.Select(item =>
            item.ItemSpec + "{" + string.Join(";", item.MetadataNames.Cast<string>()
                .Where(n => !WellKnownMetadata.Contains(n)).Order()
                .Select(n => $"{n}={item.GetMetadata(n)}")) + "}")) + "]";
}
