using System.Collections.Generic;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// The differential suite on Linux: every scenario through MSBuild's own Copy and CloneCopy's, on ext4
/// (both copy) and on a reflink XFS (both clone). CI runs it as root, as an unprivileged user (given
/// directories through CLONECOPY_TEST_*), and in processes with MSBuild's per-process switches changed.
/// </summary>
[Collection(FilesystemCollection.Name)]
[Trait("Lane", "Differential")]
public sealed class LinuxDifferentialTests
{
    private readonly LoopFilesystems _filesystems;

    public LinuxDifferentialTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    public static IEnumerable<object[]> Cases() =>
        from scenario in CopyScenarios.Selected
        from kind in new[] { FilesystemKind.Ext4, FilesystemKind.Xfs }
        select new object[] { scenario.Name, kind };

    [FilesystemTheory]
    [MemberData(nameof(Cases))]
    public void CloneCopy_behaves_like_MSBuilds_Copy(string scenarioName, FilesystemKind kind) =>
        DifferentialRunner.AssertSameBehaviour(CopyScenarios.Named(scenarioName), _filesystems.NewDirectory(kind, "differential"));

    [Fact]
    public void The_suite_has_at_least_a_hundred_distinct_scenarios()
    {
        Assert.True(CopyScenarios.ForThisPlatform.Count >= 100, $"{CopyScenarios.ForThisPlatform.Count} scenarios");
        Assert.Equal(CopyScenarios.All.Count, CopyScenarios.All.Select(s => s.Name).Distinct().Count());
    }
}
