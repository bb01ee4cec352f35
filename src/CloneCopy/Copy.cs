using System;
using System.Collections.Generic;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// A drop-in for MSBuild's Copy task that clones files on filesystems that can. Same parameters, outputs,
/// defaults, validation, messages and codes; the bytes go through CloneCopy's transfer engine.
/// </summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable", Justification = "MSBuild never disposes a task; the CancellationTokenSource, without a timer or a wait handle, holds nothing to release.")]
public sealed partial class Copy : Microsoft.Build.Utilities.Task, ICancelableTask, IIncrementalTask
{
    private readonly CancellationTokenSource _cancellation = new();
    private bool? _useSymbolicLinks;

    /// <summary>This call's project build, once asked (asking logs an event, so it is asked at most once per call).</summary>
    private BuildStatistics.ProjectBuild? _projectBuild;
    /// <summary>This call's project configuration (MSBuild's project instance id), known with <see cref="_projectBuild"/>.</summary>
    private int _projectConfiguration;
    private bool _projectBuildAsked;

    /// <summary>
    /// MSBuild's own Copy messages (localized), help keywords "MSBuild.Copy.*": found when a call has something to do
    /// (<see cref="UseMSBuildsMessages"/>), not when the task is made, so a Copy with nothing to do finds nothing.
    /// </summary>
    public Copy()
    {
    }

    public ITaskItem[]? SourceFiles { get; set; }

    public ITaskItem[]? SourceFolders { get; set; }

    public ITaskItem? DestinationFolder { get; set; }

    [Output]
    public ITaskItem[]? DestinationFiles { get; set; }

    [Output]
    public ITaskItem[]? CopiedFiles { get; private set; }

    [Output]
    public bool WroteAtLeastOneFile { get; private set; }

    public int Retries { get; set; } = 10;

    public int RetryDelayMilliseconds { get; set; } = 1000;

    public bool UseHardlinksIfPossible { get; set; }

    /// <summary>False unless set, or unless MSBuildUseSymboliclinksIfPossible is set when Execute runs (as in MSBuild).</summary>
    public bool UseSymboliclinksIfPossible
    {
        get => _useSymbolicLinks ?? false;
        set => _useSymbolicLinks = value;
    }

    public bool ErrorIfLinkFails { get; set; }

    public bool SkipUnchangedFiles { get; set; }

    public bool OverwriteReadOnlyFiles { get; set; }

    public bool FailIfNotIncremental { get; set; }

    private IFileTransfer? _transfer;
    private EngineDiagnostics? _diagnostics;

    /// <summary>
    /// Where the bytes go; tests put a fake here. The platform is made on first use, not with the task: a Copy
    /// with nothing to do (an incremental build's commonest) never sets it up.
    /// </summary>
    internal IFileTransfer Transfer
    {
        get => _transfer ??= PlatformFactory.Current.Transfer;
        set => _transfer = value;
    }

    /// <summary>Who holds a file, for the retry messages' last sentence (<see cref="ILockedFileMessage"/>); tests put their own here.</summary>
    internal ILockedFileMessage? LockedFiles { get; set; }

    /// <summary>Where the engine leaves what the user should hear once per build.</summary>
    internal EngineDiagnostics Diagnostics
    {
        get => _diagnostics ??= PlatformFactory.Diagnostics;
        set => _diagnostics = value;
    }

    /// <summary>
    /// CloneCopyAtomicReplace for this call, where a test decides it (the differential lane, the race tests); null in a
    /// build, where the project's property decides (<see cref="CloneCopySettings"/>).
    /// </summary>
    internal bool? AtomicReplaceSetting { get; set; }

    /// <summary>The build-scoped <see cref="BuildVerdicts"/> every Copy task hands its transfer chain (and CloneCopySettings fills).</summary>
    internal const string VolumeVerdictsKey = "CloneCopy.VolumeVerdicts";

    public void Cancel() => _cancellation.Cancel();

    private void UseMSBuildsMessages()
    {
        if (TaskResources is null)
        {
            TaskResources = CopyResources.Manager;
            HelpKeywordPrefix = CopyResources.HelpKeywordPrefix;
        }
    }

    public override bool Execute()
    {
        if ((SourceFiles is null || SourceFiles.Length == 0) && (SourceFolders is null || SourceFolders.Length == 0))
        {
            DestinationFiles = [];
            CopiedFiles = [];
            return true;
        }

        UseMSBuildsMessages();
        if (!CopyParameterValidator.Validate(Log, this))
        {
            return false;
        }

        CopyEnvironment environment = CallEnvironment();
        CopyEscapeHatches hatches = CopyEscapeHatches.FromEnvironment(environment);
        if (_useSymbolicLinks is null && hatches.UseSymbolicLinksByDefault)
        {
            _useSymbolicLinks = true;
        }

        // Volume verdicts belong to one build: a reused node may meet a volume unlocked or mounted since.
        BuildVerdicts? build = BuildScoped.GetOrCreate(BuildEngine, VolumeVerdictsKey, () => new BuildVerdicts());
        if (Transfer is IBuildScopedVerdicts scoped && build is not null)
        {
            scoped.UseVerdictsOf(build);
        }

        // Once per build and node (once per process in a host that keeps nothing per build), whatever the settings: a
        // build killed during an atomic replace may have left a temporary file in a folder no Copy of this build replaces into.
        if (build?.FirstToLookForAbandonedReplacements() ?? AbandonedReplacements.FirstLookOfThisProcess())
        {
            AbandonedReplacements.RemoveAfterDeadProcesses();
        }

        List<CopyPair> pairs = CopyPlanner.Plan(SourceFiles, SourceFolders, DestinationFolder, DestinationFiles, environment);
        DestinationFiles = pairs.ConvertAll(p => p.Destination).ToArray();

        var started = System.Diagnostics.Stopwatch.StartNew();
        bool atomicReplace = AtomicReplaceSetting ?? AtomicReplaceInThisProject(build);
        var copier = new PairCopier(Log, CreateOptions(hatches, environment, ClonesInsteadOfLinksInThisProject(), atomicReplace), Transfer, _cancellation.Token);
        PairOutcome[] outcomes = CopyScheduler.Run(pairs, hatches.Parallelism, environment, copier.Copy, _cancellation.Token);

        var copied = new List<ITaskItem>(pairs.Count);
        var statistics = new ProjectStatistics();
        if (atomicReplace)
        {
            statistics.MarkAtomicReplace();
        }

        bool success = true;
        foreach (CopyPair pair in pairs)
        {
            PairOutcome outcome = outcomes[pair.Index];
            statistics.Add(pair, outcome);
            if (!outcome.Succeeded)
            {
                success = false;
                continue;
            }

            if (!pair.MetadataCopied)
            {
                pair.MetadataSource.CopyMetadataTo(pair.Destination);
            }

            copied.Add(pair.Destination);
            WroteAtLeastOneFile |= outcome.Wrote;
        }

        statistics.AddTime(started.Elapsed.TotalSeconds);
        CopiedFiles = copied.ToArray();
        DiagnosticsLogger.Flush(BuildEngine, Log, Diagnostics);
        Report(statistics);
        return success && !Log.HasLoggedErrors;
    }

    /// <summary>
    /// Adds this call's outcome to its project build's statistics, which CloneCopySummary reports at the end
    /// of Build, Publish and Pack. A Copy that runs after its project's summary with none to come (a user's
    /// own target after Build, or Native AOT's copies of its executable after Publish), or in a host that cannot say
    /// which project build this is, reports itself, naming the stage it came after.
    /// </summary>
    private void Report(ProjectStatistics statistics)
    {
        if (!statistics.DidAnything)
        {
            return;
        }

        string line = CloneCopyText.Format(CloneCopyText.SummaryLine, string.Empty, statistics.Describe(), string.Empty);
        BuildStatistics.ProjectBuild? build = ProjectBuild(line);
        if (build is null)
        {
            TaskLog.Message(Log, MessageImportance.High, line);
        }
        else if (!build.TryAdd(statistics))
        {
            TaskLog.Message(Log, MessageImportance.High, CloneCopyText.Format(CloneCopyText.SummaryAfterStage, build.LastStage, statistics.Describe(), build.ProjectName));
        }
    }

    /// <summary>Whether this project set CloneCopyClonesInsteadOfLinks (asked only when links are requested).</summary>
    private bool ClonesInsteadOfLinksInThisProject() =>
        (UseHardlinksIfPossible || UseSymboliclinksIfPossible) && SettingsOfThisProject(CloneCopyText.IdentifyingLinks)?.ClonesInsteadOfLinks == true;

    /// <summary>
    /// Whether this project set CloneCopyAtomicReplace: asked (an identifying event) only in a build where some project
    /// set it, which CloneCopySettings marks on the build's object; every other build's Copy calls never ask.
    /// </summary>
    private bool AtomicReplaceInThisProject(BuildVerdicts? build) =>
        (build ?? BuildScoped.Get<BuildVerdicts>(BuildEngine, VolumeVerdictsKey)) is { AtomicReplaceAsked: true }
            && SettingsOfThisProject(CloneCopyText.IdentifyingSettings)?.AtomicReplace == true;

    /// <summary>The statistics of the project build this call runs in; null where the host cannot say.</summary>
    private BuildStatistics.ProjectBuild? ProjectBuild(string message)
    {
        if (!_projectBuildAsked)
        {
            _projectBuildAsked = true;
            _projectBuild = ProjectBuildIdentity.Identify(BuildEngine, message, out _projectConfiguration) is int id ? BuildStatistics.ForProject(BuildEngine, id) : null;
        }

        return _projectBuild;
    }

    /// <summary>The switches CloneCopySettings set for this call's project configuration; null where it set none or the host cannot say.</summary>
    private ProjectSettings? SettingsOfThisProject(string message) =>
        ProjectBuild(message) is null ? null : ProjectSettings.Find(BuildEngine, _projectConfiguration);

    /// <summary>The build's set of folders cleaned of abandoned replacement files (once per folder, build and node); a call's own where the host keeps none.</summary>
    internal const string CleanedFoldersKey = "CloneCopy.CleanedFolders";

    private CopyOptions CreateOptions(CopyEscapeHatches hatches, CopyEnvironment environment, bool clonesInsteadOfLinks, bool atomicReplace) => new(hatches)
    {
        Environment = environment,
        ClonesInsteadOfLinks = clonesInsteadOfLinks,
        AtomicReplace = atomicReplace,
        CleanedFolders = atomicReplace ? BuildScoped.GetOrCreate(BuildEngine, CleanedFoldersKey, () => new CleanedFolders()) ?? new CleanedFolders() : null,
        Retries = Retries,
        RetryDelayMilliseconds = RetryDelayMilliseconds,
        LockedFiles = LockedFiles ?? LockedFileMessage.MSBuilds,
        UseHardLinks = UseHardlinksIfPossible,
        UseSymbolicLinks = UseSymboliclinksIfPossible,
        ErrorIfLinkFails = ErrorIfLinkFails,
        SkipUnchangedFiles = SkipUnchangedFiles,
        OverwriteReadOnlyFiles = OverwriteReadOnlyFiles || hatches.AlwaysOverwriteReadOnlyFiles,
        FailIfNotIncremental = FailIfNotIncremental,
        DestinationFolder = DestinationFolder?.ItemSpec,
    };
}
