using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// The differential suite with Windows semantics: every scenario through MSBuild's own Copy and
/// CloneCopy's, under Wine's Win32 layer (attributes, sharing, access denied as Windows reports them).
/// </summary>
[Trait("Lane", "Differential")]
public sealed class WindowsDifferentialTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-differential").FullName;

    public static IEnumerable<object[]> Cases() => CopyScenarios.Selected.Select(s => new object[] { s.Name });

    public void Dispose()
    {
        foreach (string path in Directory.EnumerateFileSystemEntries(_directory, "*", SearchOption.AllDirectories))
        {
            File.SetAttributes(path, File.GetAttributes(path) & ~FileAttributes.ReadOnly);
        }

        Directory.Delete(_directory, recursive: true);
    }

    [Fact]
    public void Runs_on_Windows() => Assert.True(OperatingSystem.IsWindows(), "the Windows lane must run on a Windows runtime (Wine)");

    /// <summary>Generated cases (see CloneCopy.Tests' GeneratedDifferentialTests) with Windows semantics; fewer, Wine is slower.</summary>
    [Fact]
    public void Generated_cases_behave_like_MSBuilds_Copy()
    {
        (int first, int count) = Generated.GeneratedDifferential.SeedsFromEnvironment(100);
        Generated.GeneratedReport report = Generated.GeneratedDifferential.Run(first, count, Path.Combine(_directory, "generated"));
        TestContext.Current.SendDiagnosticMessage(report.ToString());
        Console.Error.WriteLine(report.Summary); // for the lane log: what ran, and what was skipped
        Assert.False(report.Failed, report.ToString());
        Assert.True(report.Same > 0, report.ToString());
        Generated.SkippedShare.AssertWithinShare(report);
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void CloneCopy_behaves_like_MSBuilds_Copy(string scenarioName) =>
        DifferentialRunner.AssertSameBehaviour(CopyScenarios.Named(scenarioName), _directory);
}
