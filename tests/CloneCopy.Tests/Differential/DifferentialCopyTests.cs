using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// Runs every scenario through MSBuild's own Copy (the SDK's Microsoft.Build.Tasks.Core, in this process)
/// and through CloneCopy's, on two identical fresh trees, and requires the same return value, outputs,
/// error and warning codes, and resulting tree. On XFS both clone; on ext4 both copy.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class DifferentialCopyTests
{
    private readonly LoopFilesystems _filesystems;

    public DifferentialCopyTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    public static IEnumerable<object[]> Cases() =>
        from scenario in CopyScenarios.All
        from kind in new[] { FilesystemKind.Ext4, FilesystemKind.Xfs }
        select new object[] { scenario.Name, kind };

    [FilesystemTheory]
    [MemberData(nameof(Cases))]
    public void CloneCopy_behaves_like_MSBuilds_Copy(string scenarioName, FilesystemKind kind)
    {
        CopyScenario scenario = CopyScenarios.Named(scenarioName);
        string parent = _filesystems.NewDirectory(kind, "differential");
        string builtInRoot = Path.Combine(parent, "builtin");
        string cloneCopyRoot = Path.Combine(parent, "clonecopy");

        CopyRunResult expected = Run(scenario, builtInRoot, new Microsoft.Build.Tasks.Copy(), out string builtInLog);
        CopyRunResult actual = Run(scenario, cloneCopyRoot, new CloneCopy.Copy(), out string cloneCopyLog);

        string context = $"{Environment.NewLine}built-in log:{Environment.NewLine}{builtInLog}{Environment.NewLine}CloneCopy log:{Environment.NewLine}{cloneCopyLog}";
        Assert.True(expected == actual, $"outputs differ{Environment.NewLine}built-in:  {expected}{Environment.NewLine}CloneCopy: {actual}{context}");
        Assert.Equal(TreeSnapshot.Take(builtInRoot), TreeSnapshot.Take(cloneCopyRoot));

        // Pin what the built-in task does, so the scenario keeps testing what its name says.
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

    [Fact]
    public void The_suite_has_at_least_forty_distinct_scenarios()
    {
        Assert.True(CopyScenarios.All.Count >= 40, $"{CopyScenarios.All.Count} scenarios");
        Assert.Equal(CopyScenarios.All.Count, CopyScenarios.All.Select(s => s.Name).Distinct().Count());
    }

    private static CopyRunResult Run(CopyScenario scenario, string root, ITask task, out string log)
    {
        var tree = ScenarioTree.CreateStandard(root);
        scenario.Arrange?.Invoke(tree);

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
            scenario.Parameters.ApplyTo(task);
            bool succeeded = task.Execute();
            log = engine.Describe();
            return CopyRunResult.From(task, succeeded, engine);
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
