using System.Collections.Generic;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// The differential suite with MSBuild's multithreaded semantics: both Copy tasks get a TaskEnvironment whose
/// project directory is the scenario's tree while the process sits elsewhere, and whose environment alone
/// holds the scenario's escape hatches. Compared verbatim, as in <see cref="LinuxDifferentialTests"/>.
/// </summary>
[Collection(FilesystemCollection.Name)]
[Trait("Lane", "DifferentialMultiThreaded")]
public sealed class MultiThreadedDifferentialTests
{
    private readonly LoopFilesystems _filesystems;

    public MultiThreadedDifferentialTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    public static IEnumerable<object[]> Cases() =>
        from scenario in CopyScenarios.ForThisPlatform
        from kind in new[] { FilesystemKind.Ext4, FilesystemKind.Xfs }
        select new object[] { scenario.Name, kind };

    [FilesystemTheory]
    [MemberData(nameof(Cases))]
    public void CloneCopy_behaves_like_MSBuilds_Copy_with_the_projects_TaskEnvironment(string scenarioName, FilesystemKind kind) =>
        DifferentialRunner.AssertSameBehaviour(CopyScenarios.Named(scenarioName), _filesystems.NewDirectory(kind, "differential-mt"), multiThreaded: true);
}
