using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// Runs one scenario through MSBuild's own Copy (the SDK's Microsoft.Build.Tasks.Core, in this process)
/// and through CloneCopy's, each on its own fresh identical tree under <c>parent</c>, and requires the
/// same return value, outputs with metadata, events (verbatim, CloneCopy's own additions aside) and
/// resulting tree. Used by each lane's test class (Linux filesystems, Windows under Wine).
/// </summary>
public static class DifferentialRunner
{
    /// <summary>
    /// True when this process runs with one of MSBuild's per-process switches changed (the "variant" lane):
    /// then the built-in task's codes differ from the ones the scenarios pin, and only the comparison holds.
    /// </summary>
    public static bool VariantEnvironment =>
        CopyEscapeHatches.FromEnvironment(CopyEnvironment.Process).AnyChangesBehaviour
        || !string.IsNullOrEmpty(Environment.GetEnvironmentVariable(MSBuildChangeWaves.DisableFeaturesFromVersionVariable))
        || OlderMSBuild.Before(RunningMSBuild.AccessDeniedRetriedOffWindows);

    public static void AssertSameBehaviour(CopyScenario scenario, string parent, bool multiThreaded = false) =>
        AssertSameBehaviour(scenario, parent, CloneCopyTask, multiThreaded);

    /// <summary>
    /// The atomic-replace lane (scripts/differential-lanes.sh): a process started with CLONECOPY_TEST_ATOMIC_REPLACE=1
    /// holds CloneCopy with CloneCopyAtomicReplace on to MSBuild's Copy (a setting of CloneCopy's alone, which MSBuild's
    /// task never sees).
    /// </summary>
    public static bool AtomicReplaceLane => Environment.GetEnvironmentVariable("CLONECOPY_TEST_ATOMIC_REPLACE") == "1";

    /// <summary>CloneCopy's task as this lane runs it.</summary>
    public static ITask CloneCopyTask() => new CloneCopy.Copy { AtomicReplaceSetting = AtomicReplaceLane ? true : null };

    /// <param name="candidate">The task held to MSBuild's Copy: CloneCopy's, or MSBuild's own again (is it deterministic here?).</param>
    /// <param name="multiThreaded">
    /// MSBuild's multithreaded mode (-mt): each task gets a TaskEnvironment whose project directory is the
    /// scenario's tree while the process's current directory is an empty folder elsewhere, and whose environment
    /// alone holds the scenario's variables (the process's does not). A task that resolved a relative spec against
    /// the process's directory, or read an escape hatch from the process, would behave differently from MSBuild's.
    /// </param>
    public static void AssertSameBehaviour(CopyScenario scenario, string parent, Func<ITask> candidate, bool multiThreaded = false)
    {
        string builtInRoot = Path.Combine(parent, "builtin");
        string cloneCopyRoot = Path.Combine(parent, "clonecopy");
        ITask firstCandidate = candidate();
        string candidateSide = SideOf(firstCandidate);
        if (OlderMSBuild.EndsMSBuildsCopy(scenario))
        {
            AssertAloneAsLaterMSBuilds(scenario, cloneCopyRoot, firstCandidate, candidateSide, multiThreaded);
            return;
        }

        // Each step says what it was doing for which side when it throws (DifferentialStepException); an
        // assertion (the two tasks differ) passes through as it is.
        var builtInTree = Step(DifferentialStep.TreeCreation, BuiltInSide, () => MakeTree(scenario, builtInRoot));
        var cloneCopyTree = Step(DifferentialStep.TreeCreation, candidateSide, () => MakeTree(scenario, cloneCopyRoot));

        CopyRunResult expected = Run(scenario, scenario.Parameters, builtInTree, new Microsoft.Build.Tasks.Copy(), BuiltInSide, multiThreaded, out string builtInLog);
        CopyRunResult actual = Run(scenario, scenario.Parameters, cloneCopyTree, firstCandidate, candidateSide, multiThreaded, out string cloneCopyLog);
        if (AssertedDroppedCaseVariants(builtInTree, cloneCopyTree, candidateSide))
        {
            Step(DifferentialStep.CleanUp, BuiltInSide, () => RemoveTree(builtInRoot));
            Step(DifferentialStep.CleanUp, candidateSide, () => RemoveTree(cloneCopyRoot));
            return;
        }

        if (scenario.OutputsDiffer && IntendedDifferenceHolds(scenario))
        {
            Step(DifferentialStep.Comparison, BothSides, () => AssertDocumentedSuccess(expected, actual, builtInLog, cloneCopyLog));
        }
        else
        {
            Step(DifferentialStep.Comparison, BothSides, () => AssertSame(expected, actual, builtInLog, cloneCopyLog));
        }

        AssertSameTrees(scenario, builtInTree, cloneCopyTree, candidateSide);
        PinWroteAtLeastOneFile(scenario, expected.WroteAtLeastOneFile, second: false, builtInLog);

        if (scenario.SecondRun is CopyParameters second)
        {
            Step(DifferentialStep.TreeCreation, BuiltInSide, () => scenario.BetweenRuns?.Invoke(builtInTree));
            Step(DifferentialStep.TreeCreation, candidateSide, () => scenario.BetweenRuns?.Invoke(cloneCopyTree));
            CopyRunResult expectedSecond = Run(scenario, second, builtInTree, new Microsoft.Build.Tasks.Copy(), BuiltInSide, multiThreaded, out string builtInSecondLog);
            CopyRunResult actualSecond = Run(scenario, second, cloneCopyTree, candidate(), candidateSide, multiThreaded, out string cloneCopySecondLog);
            Step(DifferentialStep.Comparison, BothSides, () => AssertSame(expectedSecond, actualSecond, builtInSecondLog, cloneCopySecondLog));
            AssertSameTrees(scenario, builtInTree, cloneCopyTree, candidateSide);
            PinWroteAtLeastOneFile(scenario, expectedSecond.WroteAtLeastOneFile, second: true, builtInSecondLog);
            expected = expectedSecond; // the pins below speak of the last run
            builtInLog = builtInSecondLog;
        }

        PinBuiltIn(scenario, expected, builtInLog);
        if (Environment.GetEnvironmentVariable("CLONECOPY_DIFFERENTIAL_LOGS") is string logs && logs.Length > 0)
        {
            // For people reading what each scenario really does: both tasks' logs, side by side.
            File.AppendAllText(logs, $"== {scenario.Name}{Environment.NewLine}-- built-in{Environment.NewLine}{builtInLog}{Environment.NewLine}-- CloneCopy{Environment.NewLine}{cloneCopyLog}{Environment.NewLine}");
        }

        // Passed: the trees have said all they can (a failure keeps them for a look).
        Step(DifferentialStep.CleanUp, BuiltInSide, () => RemoveTree(builtInRoot));
        Step(DifferentialStep.CleanUp, candidateSide, () => RemoveTree(cloneCopyRoot));
    }

    /// <summary>
    /// A scenario the MSBuild the suite runs against cannot run (OlderMSBuild.EndsMSBuildsCopy): CloneCopy's side alone,
    /// held to the scenario's pins, which say what later MSBuilds do.
    /// </summary>
    private static void AssertAloneAsLaterMSBuilds(CopyScenario scenario, string root, ITask candidate, string candidateSide, bool multiThreaded)
    {
        Assert.False(candidateSide.StartsWith(BuiltInSide, StringComparison.Ordinal), $"{scenario.Name}: MSBuild {RunningMSBuild.Current}'s Copy cannot run it");
        OlderMSBuild.AssertPinned(scenario);
        var tree = Step(DifferentialStep.TreeCreation, candidateSide, () => MakeTree(scenario, root));
        CopyRunResult alone = Run(scenario, scenario.Parameters, tree, candidate, candidateSide, multiThreaded, out string log);
        PinBuiltIn(scenario, alone, log);
        Step(DifferentialStep.CleanUp, candidateSide, () => RemoveTree(root));
    }

    /// <summary>
    /// Under an MSBuild before 18.3, where its Copy dropped one of two sources that differ only in case
    /// (OlderMSBuild.DroppedCaseVariants): the trees are the same but for the files MSBuild's Copy dropped. The outputs
    /// and events differ by those copies and are not compared. False (nothing asserted) for every other run.
    /// </summary>
    private static bool AssertedDroppedCaseVariants(ScenarioTree builtIn, ScenarioTree cloneCopy, string candidateSide)
    {
        if (!OlderMSBuild.Before(OlderMSBuild.CaseSensitiveDestinations))
        {
            return false;
        }

        string expected = Step(DifferentialStep.Snapshot, BuiltInSide, () => TreeSnapshot.Take(builtIn.Root));
        string actual = Step(DifferentialStep.Snapshot, candidateSide, () => TreeSnapshot.Take(cloneCopy.Root));
        var dropped = OlderMSBuild.DroppedCaseVariants(expected, actual);
        if (dropped.Count == 0)
        {
            return false;
        }

        Assert.Equal(OlderMSBuild.WithoutLinkCounts(OlderMSBuild.WithLinksToFullPaths(expected, actual)), OlderMSBuild.Without(actual, dropped));
        return true;
    }

    /// <summary>The side MSBuild's own Copy is on, as failures name it.</summary>
    public const string BuiltInSide = "MSBuild's Copy";

    private const string BothSides = "both tasks";

    /// <summary>How failures name the task held to MSBuild's Copy: CloneCopy, or MSBuild's Copy run against itself.</summary>
    public static string SideOf(ITask candidate) => candidate switch
    {
        CloneCopy.Copy => "CloneCopy",
        _ when candidate.GetType() == typeof(Microsoft.Build.Tasks.Copy) => "MSBuild's Copy (against itself)",
        _ => candidate.GetType().FullName ?? candidate.GetType().Name,
    };

    private static ScenarioTree MakeTree(CopyScenario scenario, string root)
    {
        var tree = scenario.StartsEmpty ? ScenarioTree.CreateEmpty(root) : ScenarioTree.CreateStandard(root);
        scenario.Arrange?.Invoke(tree);
        return tree;
    }

    /// <summary>Runs one step; an exception other than an assertion becomes a <see cref="DifferentialStepException"/> naming it.</summary>
    private static T Step<T>(DifferentialStep step, string side, Func<T> action)
    {
        try
        {
            return action();
        }
        catch (Exception e) when (e is not Xunit.Sdk.IAssertionException and not DifferentialStepException and not OutOfMemoryException)
        {
            throw new DifferentialStepException(step, side, thrownByTask: false, e);
        }
    }

    private static void Step(DifferentialStep step, string side, Action action) => Step(step, side, () =>
    {
        action();
        return true;
    });

    /// <summary>
    /// False where the process was started with MSBUILDCOPYWITHOUTDELETE=1 and the difference comes from
    /// replacing a destination: then CloneCopy keeps it in place, as asked and as MSBuild does, and the two
    /// are compared like any other scenario.
    /// </summary>
    private static bool IntendedDifferenceHolds(CopyScenario scenario) =>
        !(scenario.DifferenceReplacesDestination && CopyEscapeHatches.FromEnvironment(CopyEnvironment.Process).CopyWithoutDelete);

    /// <summary>Removes a scenario's tree, read-only and unreadable entries included; what its links lead to is left alone.</summary>
    public static void RemoveTree(string root)
    {
        foreach (string path in TreeWalk.Entries(root))
        {
            var info = new FileInfo(path);
            if (info.LinkTarget is null)
            {
                File.SetAttributes(path, File.GetAttributes(path) & ~FileAttributes.ReadOnly);
                if (!OperatingSystem.IsWindows() && Directory.Exists(path))
                {
                    File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
                }
            }
        }

        Directory.Delete(root, recursive: true);
    }

    private static void AssertSameTrees(CopyScenario scenario, ScenarioTree builtIn, ScenarioTree cloneCopy, string candidateSide)
    {
        if (scenario.IntendedDifference is Action<ScenarioTree> documented && IntendedDifferenceHolds(scenario))
        {
            // The documented behaviour on CloneCopy's tree, and the same trees apart from the entries it is about.
            Step(DifferentialStep.Comparison, candidateSide, () => documented(cloneCopy));
            string builtInRest = Step(DifferentialStep.Snapshot, BuiltInSide, () => Without(TreeSnapshot.Take(builtIn.Root), scenario.DifferingPaths));
            string cloneCopyRest = Step(DifferentialStep.Snapshot, candidateSide, () => Without(TreeSnapshot.Take(cloneCopy.Root), scenario.DifferingPaths));
            Assert.Equal(OlderMSBuild.WithLinksToFullPaths(builtInRest, cloneCopyRest), cloneCopyRest);
            return;
        }

        string expected = Step(DifferentialStep.Snapshot, BuiltInSide, () => TreeSnapshot.Take(builtIn.Root));
        string actual = Step(DifferentialStep.Snapshot, candidateSide, () => TreeSnapshot.Take(cloneCopy.Root));
        // Under an MSBuild before 18.4 its links to relative specs dangle; CloneCopy's are to full paths (OlderMSBuild).
        Assert.Equal(OlderMSBuild.WithLinksToFullPaths(expected, actual), actual);
    }

    /// <summary>"[a.txt{Kind=source-a.txt}, b.txt{}]" as "[a.txt, b.txt]".</summary>
    private static string ItemSpecs(string items) => System.Text.RegularExpressions.Regex.Replace(items, @"\{[^}]*\}", string.Empty);

    /// <summary>
    /// A tree snapshot without the lines ("path size=…", "path/", "path -> …") of the entries whose paths match one
    /// of the regular expressions.
    /// </summary>
    private static string Without(string snapshot, IReadOnlyList<string> pathPatterns) =>
        string.Join(Environment.NewLine, snapshot.Split(Environment.NewLine)
            .Where(line => !pathPatterns.Any(p => System.Text.RegularExpressions.Regex.IsMatch(line, $"^(?:{p})(?: |/$)"))));

    /// <summary>
    /// Where MSBuild's Copy fails and CloneCopy, as documented, does not: CloneCopy succeeds without errors or
    /// warnings, reports every destination copied, gives the same DestinationFiles, and says nothing MSBuild's
    /// Copy did not also say (MSBuild's retries and errors are the difference).
    /// </summary>
    private static void AssertDocumentedSuccess(CopyRunResult expected, CopyRunResult actual, string builtInLog, string cloneCopyLog)
    {
        string context = $"{Environment.NewLine}built-in log:{Environment.NewLine}{builtInLog}{Environment.NewLine}CloneCopy log:{Environment.NewLine}{cloneCopyLog}";
        Assert.True(actual.Succeeded, $"CloneCopy failed where its documented behaviour succeeds{context}");
        Assert.True(actual.ErrorCodes.Length == 0 && actual.WarningCodes.Length == 0, $"CloneCopy's errors and warnings: '{actual.ErrorCodes}' '{actual.WarningCodes}'{context}");
        // The same items; MSBuild's Copy copies the source's metadata onto a destination item only after copying it.
        Assert.True(ItemSpecs(expected.DestinationFiles) == ItemSpecs(actual.DestinationFiles), $"DestinationFiles differ: {expected.DestinationFiles} and {actual.DestinationFiles}{context}");
        Assert.True(actual.CopiedFiles == actual.DestinationFiles, $"CloneCopy's CopiedFiles are not its DestinationFiles: {actual.CopiedFiles}{context}");
        var builtInEvents = expected.Events.Split(Environment.NewLine).ToHashSet(StringComparer.Ordinal);
        string[] unheard = actual.Events.Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries).Where(e => !builtInEvents.Contains(e)).ToArray();
        Assert.True(unheard.Length == 0, $"CloneCopy said what MSBuild's Copy did not:{Environment.NewLine}{string.Join(Environment.NewLine, unheard)}{context}");
        AssertSameDirectoryCreations(expected.DirectoryCreations, actual.DirectoryCreations);
    }

    private static void AssertSame(CopyRunResult expected, CopyRunResult actual, string builtInLog, string cloneCopyLog)
    {

        string context = $"{Environment.NewLine}built-in log:{Environment.NewLine}{builtInLog}{Environment.NewLine}CloneCopy log:{Environment.NewLine}{cloneCopyLog}";
        CopyRunResult expectedOutputs = expected with { Events = string.Empty, DirectoryCreations = string.Empty };
        CopyRunResult actualOutputs = actual with { Events = string.Empty, DirectoryCreations = string.Empty };
        Assert.True(expectedOutputs == actualOutputs, $"outputs differ{Environment.NewLine}built-in:  {expectedOutputs}{Environment.NewLine}CloneCopy: {actualOutputs}{context}");
        Assert.True(expected.Events == actual.Events, $"events differ{Environment.NewLine}built-in:{Environment.NewLine}{expected.Events}{Environment.NewLine}CloneCopy:{Environment.NewLine}{actual.Events}{context}");
        AssertSameDirectoryCreations(expected.DirectoryCreations, actual.DirectoryCreations);
    }

    /// <summary>
    /// MSBuild's Copy threads race to create new folders: each thread that finds one missing says so, and a
    /// folder made as the parent of a deeper one is named or not depending on which file came first. What
    /// does not depend on the order is the deepest folders named (no other named folder lies inside them):
    /// those must be the same.
    /// </summary>
    private static void AssertSameDirectoryCreations(string expected, string actual) =>
        Assert.Equal(DeepestFolders(expected), DeepestFolders(actual));

    private static string DeepestFolders(string creations)
    {
        string[] folders = creations.Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries)
            .Select(e => Normalized(e[..e.LastIndexOf('"')])).Distinct().ToArray();
        return string.Join(Environment.NewLine, folders
            .Where(f => !folders.Any(other => other.StartsWith(f + "/", StringComparison.Ordinal) || other.StartsWith(f + "\\", StringComparison.Ordinal)))
            .Order(StringComparer.Ordinal));
    }

    /// <summary>
    /// The folder in a "Creating directory" text with its spelling normalized ("./out" is "out"): which of two
    /// spellings of one folder a thread names first is the same race.
    /// </summary>
    private static string Normalized(string creation)
    {
        int quote = creation.IndexOf('"');
        string folder = creation[(quote + 1)..];
        if (quote < 0 || folder.Length == 0 || folder.StartsWith("<root>", StringComparison.Ordinal))
        {
            return creation;
        }

        string anchor = OperatingSystem.IsWindows() ? @"C:\n\" : "/n/";
        string full = Path.GetFullPath(Path.Combine(anchor, folder));
        return full.StartsWith(anchor, StringComparison.Ordinal) ? creation[..(quote + 1)] + full[anchor.Length..].TrimEnd('/', '\\') : creation;
    }

    /// <summary>
    /// Whether the built-in task's pinned outcomes hold here: they were observed on Linux and under Wine, and are held
    /// there only. On macOS MSBuild's Copy reaches .NET's macOS File.Copy, which removes an existing destination before it
    /// clones (dotnet/runtime, FileSystem.CopyFile.OSX.cs) where Linux writes it in place, so an outcome differs there by
    /// .NET's design (a writable file in a folder that may not be written: the removal is refused, the copy fails). On
    /// Windows itself MSBuild's Copy meets Windows' CopyFile and share modes, not Wine's (Wine's CopyFileExW shares its
    /// source for reading, writing and deleting: docs/windows.md, "Share mode"). Everywhere the comparison with CloneCopy,
    /// both tasks on one disk in one process, holds: that is the product's rule; the pins keep the scenarios honest where
    /// they were seen.
    /// </summary>
    public static bool PinsHoldHere => OperatingSystem.IsLinux() || UnderWine;

    /// <summary>Whether this Windows process runs under Wine: Wine's ntdll exports wine_get_version, Windows' does not.</summary>
    public static bool UnderWine { get; } = OperatingSystem.IsWindows()
        && System.Runtime.InteropServices.NativeLibrary.TryLoad("ntdll.dll", out IntPtr ntdll)
        && System.Runtime.InteropServices.NativeLibrary.TryGetExport(ntdll, "wine_get_version", out _);

    /// <summary>Pins what the built-in task does, so the scenario keeps testing what its name says.</summary>
    private static void PinBuiltIn(CopyScenario scenario, CopyRunResult expected, string builtInLog)
    {
        string context = $"{Environment.NewLine}built-in log:{Environment.NewLine}{builtInLog}";
        if (!PinsHoldHere || (OperatingSystem.IsWindows() && scenario.UsesSymbolicLinks))
        {
            return;
        }

        // In a process with a per-process switch changed, the pins hold as VariantPins adjusts them.
        (bool? expectSuccess, string? expectErrors, string? expectWarnings) = VariantEnvironment
            ? VariantPins.For(scenario)
            : (scenario.ExpectSuccess, scenario.ExpectErrorCodes, scenario.ExpectWarningCodes);
        // Every pin that does not hold, in one message (with the switches of this process, for VariantPins).
        string mismatches = string.Concat(
            expectSuccess is bool success && success != expected.Succeeded ? $" returned {expected.Succeeded} (pinned {success});" : string.Empty,
            expectErrors is string errors && errors != expected.ErrorCodes ? $" error codes \"{expected.ErrorCodes}\" (pinned \"{errors}\");" : string.Empty,
            expectWarnings is string warnings && warnings != expected.WarningCodes ? $" warning codes \"{expected.WarningCodes}\" (pinned \"{warnings}\");" : string.Empty);
        Assert.True(mismatches.Length == 0, $"built-in task, switches [{string.Join(" ", VariantPins.Switches())}]:{mismatches}{context}");
    }

    /// <summary>The built-in task's WroteAtLeastOneFile in one run, against the scenario's pin (in a process where no switch changes Copy).</summary>
    private static void PinWroteAtLeastOneFile(CopyScenario scenario, bool wrote, bool second, string builtInLog)
    {
        if (scenario.ExpectWroteAtLeastOneFile is not (bool first, bool then) || VariantEnvironment || !PinsHoldHere || (OperatingSystem.IsWindows() && scenario.UsesSymbolicLinks))
        {
            return;
        }

        bool pinned = second ? then : first;
        Assert.True(wrote == pinned, $"built-in task, {(second ? "second" : "first")} run: WroteAtLeastOneFile {wrote} (pinned {pinned}){Environment.NewLine}built-in log:{Environment.NewLine}{builtInLog}");
    }

    /// <summary>One task's run; what throws around its Execute is the harness's (step: run), what Execute throws is the task's.</summary>
    private static CopyRunResult Run(CopyScenario scenario, CopyParameters parameters, ScenarioTree tree, ITask task, string side, bool multiThreaded, out string log)
    {
        string root = tree.Root;
        var engine = new TestBuildEngine();
        task.BuildEngine = engine;
        string previousDirectory = Environment.CurrentDirectory;
        var previousEnvironment = scenario.Environment.Keys.ToDictionary(k => k, Environment.GetEnvironmentVariable);
        try
        {
#if CLONECOPY_NO_MULTITHREADED_API
            // Built against an MSBuild without the multithreaded API (MSBuildUnderTest.props): no -mt half to run.
            Assert.False(multiThreaded, "this build of the suite has no multithreaded API");
#else
            if (multiThreaded)
            {
                ((IMultiThreadableTask)task).TaskEnvironment = MultiThreadedEnvironment.For(root, scenario.Environment);
                Environment.CurrentDirectory = MultiThreadedEnvironment.ElsewhereThan(root);
            }
            else
#endif
            {
                foreach (var (name, value) in scenario.Environment)
                {
                    Environment.SetEnvironmentVariable(name, value);
                }

                Environment.CurrentDirectory = root;
            }

            parameters.ApplyTo(task);
            bool succeeded;
            using (scenario.WhileCopying?.Invoke(tree))
            {
                succeeded = Execute(task, side);
            }

            log = engine.Describe();
            return CopyRunResult.From(task, succeeded, engine, root);
        }
        catch (Exception e) when (e is not DifferentialStepException and not OutOfMemoryException)
        {
            throw new DifferentialStepException(DifferentialStep.Run, side, thrownByTask: false, e);
        }
        finally
        {
            Environment.CurrentDirectory = previousDirectory;
            foreach (var (name, value) in previousEnvironment)
            {
                Environment.SetEnvironmentVariable(name, value);
            }
        }
    }

    private static bool Execute(ITask task, string side)
    {
        try
        {
            return task.Execute();
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            throw new DifferentialStepException(DifferentialStep.Run, side, thrownByTask: true, e);
        }
    }
}
