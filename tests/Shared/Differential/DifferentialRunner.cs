using System;
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
        || !string.IsNullOrEmpty(Environment.GetEnvironmentVariable(MSBuildChangeWaves.DisableFeaturesFromVersionVariable));

    public static void AssertSameBehaviour(CopyScenario scenario, string parent, bool multiThreaded = false) =>
        AssertSameBehaviour(scenario, parent, () => new CloneCopy.Copy(), multiThreaded);

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

        var builtInTree = scenario.StartsEmpty ? ScenarioTree.CreateEmpty(builtInRoot) : ScenarioTree.CreateStandard(builtInRoot);
        var cloneCopyTree = scenario.StartsEmpty ? ScenarioTree.CreateEmpty(cloneCopyRoot) : ScenarioTree.CreateStandard(cloneCopyRoot);
        scenario.Arrange?.Invoke(builtInTree);
        scenario.Arrange?.Invoke(cloneCopyTree);

        CopyRunResult expected = Run(scenario, scenario.Parameters, builtInTree, new Microsoft.Build.Tasks.Copy(), multiThreaded, out string builtInLog);
        CopyRunResult actual = Run(scenario, scenario.Parameters, cloneCopyTree, candidate(), multiThreaded, out string cloneCopyLog);
        if (scenario.OutputsDiffer && IntendedDifferenceHolds(scenario))
        {
            Assert.True(actual.Succeeded, $"CloneCopy failed where its documented behaviour succeeds{Environment.NewLine}{cloneCopyLog}");
            scenario.IntendedDifference!(cloneCopyTree);
            PinBuiltIn(scenario, expected, builtInLog);
            return;
        }

        AssertSame(expected, actual, builtInLog, cloneCopyLog);
        AssertSameTrees(scenario, builtInTree, cloneCopyTree);

        if (scenario.SecondRun is CopyParameters second)
        {
            scenario.BetweenRuns?.Invoke(builtInTree);
            scenario.BetweenRuns?.Invoke(cloneCopyTree);
            CopyRunResult expectedSecond = Run(scenario, second, builtInTree, new Microsoft.Build.Tasks.Copy(), multiThreaded, out string builtInSecondLog);
            CopyRunResult actualSecond = Run(scenario, second, cloneCopyTree, candidate(), multiThreaded, out string cloneCopySecondLog);
            AssertSame(expectedSecond, actualSecond, builtInSecondLog, cloneCopySecondLog);
            AssertSameTrees(scenario, builtInTree, cloneCopyTree);
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
        RemoveTree(builtInRoot);
        RemoveTree(cloneCopyRoot);
    }

    /// <summary>
    /// False where the process was started with MSBUILDCOPYWITHOUTDELETE=1 and the difference comes from
    /// replacing a destination: then CloneCopy keeps it in place, as asked and as MSBuild does, and the two
    /// are compared like any other scenario.
    /// </summary>
    private static bool IntendedDifferenceHolds(CopyScenario scenario) =>
        !(scenario.DifferenceReplacesDestination && CopyEscapeHatches.FromEnvironment(CopyEnvironment.Process).CopyWithoutDelete);

    /// <summary>Removes a scenario's tree, read-only and unreadable entries included.</summary>
    public static void RemoveTree(string root)
    {
        foreach (string path in Directory.EnumerateFileSystemEntries(root, "*", new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = 0 }))
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

    private static void AssertSameTrees(CopyScenario scenario, ScenarioTree builtIn, ScenarioTree cloneCopy)
    {
        if (scenario.IntendedDifference is Action<ScenarioTree> documented && IntendedDifferenceHolds(scenario))
        {
            documented(cloneCopy);
            return;
        }

        Assert.Equal(TreeSnapshot.Take(builtIn.Root), TreeSnapshot.Take(cloneCopy.Root));
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

    /// <summary>Pins what the built-in task does, so the scenario keeps testing what its name says.</summary>
    private static void PinBuiltIn(CopyScenario scenario, CopyRunResult expected, string builtInLog)
    {
        string context = $"{Environment.NewLine}built-in log:{Environment.NewLine}{builtInLog}";
        if (VariantEnvironment || (OperatingSystem.IsWindows() && scenario.UsesSymbolicLinks))
        {
            return;
        }

        if (scenario.ExpectSuccess is bool success)
        {
            Assert.True(success == expected.Succeeded, $"built-in returned {expected.Succeeded}{context}");
        }

        if (scenario.ExpectErrorCodes is string errors)
        {
            Assert.Equal(errors, expected.ErrorCodes);
        }

        if (scenario.ExpectWarningCodes is string warnings)
        {
            Assert.Equal(warnings, expected.WarningCodes);
        }
    }

    private static CopyRunResult Run(CopyScenario scenario, CopyParameters parameters, ScenarioTree tree, ITask task, bool multiThreaded, out string log)
    {
        string root = tree.Root;
        var engine = new TestBuildEngine();
        task.BuildEngine = engine;
        string previousDirectory = Environment.CurrentDirectory;
        var previousEnvironment = scenario.Environment.Keys.ToDictionary(k => k, Environment.GetEnvironmentVariable);
        try
        {
            if (multiThreaded)
            {
                ((IMultiThreadableTask)task).TaskEnvironment = MultiThreadedEnvironment.For(root, scenario.Environment);
                Environment.CurrentDirectory = MultiThreadedEnvironment.ElsewhereThan(root);
            }
            else
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
                succeeded = task.Execute();
            }

            log = engine.Describe();
            return CopyRunResult.From(task, succeeded, engine, root);
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
}
