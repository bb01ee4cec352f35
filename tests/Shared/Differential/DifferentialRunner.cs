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
        !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("MSBUILDALWAYSRETRY"))
        || !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("MSBUILDDISABLEFEATURESFROMVERSION"));

    public static void AssertSameBehaviour(CopyScenario scenario, string parent)
    {
        string builtInRoot = Path.Combine(parent, "builtin");
        string cloneCopyRoot = Path.Combine(parent, "clonecopy");

        var builtInTree = ScenarioTree.CreateStandard(builtInRoot);
        var cloneCopyTree = ScenarioTree.CreateStandard(cloneCopyRoot);
        scenario.Arrange?.Invoke(builtInTree);
        scenario.Arrange?.Invoke(cloneCopyTree);

        CopyRunResult expected = Run(scenario, scenario.Parameters, builtInTree, new Microsoft.Build.Tasks.Copy(), out string builtInLog);
        CopyRunResult actual = Run(scenario, scenario.Parameters, cloneCopyTree, new CloneCopy.Copy(), out string cloneCopyLog);
        AssertSame(expected, actual, builtInLog, cloneCopyLog);
        Assert.Equal(TreeSnapshot.Take(builtInRoot), TreeSnapshot.Take(cloneCopyRoot));

        if (scenario.SecondRun is CopyParameters second)
        {
            scenario.BetweenRuns?.Invoke(builtInTree);
            scenario.BetweenRuns?.Invoke(cloneCopyTree);
            CopyRunResult expectedSecond = Run(scenario, second, builtInTree, new Microsoft.Build.Tasks.Copy(), out string builtInSecondLog);
            CopyRunResult actualSecond = Run(scenario, second, cloneCopyTree, new CloneCopy.Copy(), out string cloneCopySecondLog);
            AssertSame(expectedSecond, actualSecond, builtInSecondLog, cloneCopySecondLog);
            Assert.Equal(TreeSnapshot.Take(builtInRoot), TreeSnapshot.Take(cloneCopyRoot));
            expected = expectedSecond; // the pins below speak of the last run
            builtInLog = builtInSecondLog;
        }

        PinBuiltIn(scenario, expected, builtInLog);
    }

    private static void AssertSame(CopyRunResult expected, CopyRunResult actual, string builtInLog, string cloneCopyLog)
    {

        string context = $"{Environment.NewLine}built-in log:{Environment.NewLine}{builtInLog}{Environment.NewLine}CloneCopy log:{Environment.NewLine}{cloneCopyLog}";
        Assert.True(expected with { Events = string.Empty } == actual with { Events = string.Empty }, $"outputs differ{Environment.NewLine}built-in:  {expected with { Events = string.Empty }}{Environment.NewLine}CloneCopy: {actual with { Events = string.Empty }}{context}");
        Assert.Equal(expected.Events, actual.Events);
    }

    /// <summary>Pins what the built-in task does, so the scenario keeps testing what its name says.</summary>
    private static void PinBuiltIn(CopyScenario scenario, CopyRunResult expected, string builtInLog)
    {
        string context = $"{Environment.NewLine}built-in log:{Environment.NewLine}{builtInLog}";
        if (VariantEnvironment)
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

    private static CopyRunResult Run(CopyScenario scenario, CopyParameters parameters, ScenarioTree tree, ITask task, out string log)
    {
        string root = tree.Root;
        var engine = new TestBuildEngine();
        task.BuildEngine = engine;
        string previousDirectory = Environment.CurrentDirectory;
        var previousEnvironment = scenario.Environment.Keys.ToDictionary(k => k, Environment.GetEnvironmentVariable);
        try
        {
            foreach (var (name, value) in scenario.Environment)
            {
                Environment.SetEnvironmentVariable(name, value);
            }

            Environment.CurrentDirectory = root;
            parameters.ApplyTo(task);
            bool succeeded = task.Execute();
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
