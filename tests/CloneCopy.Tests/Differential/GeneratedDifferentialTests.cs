using System.Linq;
using CloneCopy.Tests.Differential.Generated;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// Generated cases (random trees and Copy invocations from fixed seeds) through MSBuild's Copy and
/// CloneCopy's, on ext4, in every differential lane. CLONECOPY_GEN_SEED / CLONECOPY_GEN_CASES run others.
/// </summary>
[Collection(FilesystemCollection.Name)]
[Trait("Lane", "Differential")]
public sealed class GeneratedDifferentialTests
{
    /// <summary>Cases per lane in CI: well under a minute on a loaded two-core machine.</summary>
    private const int CasesInCi = 150;

    private readonly LoopFilesystems _filesystems;
    private readonly ITestOutputHelper _output;

    public GeneratedDifferentialTests(LoopFilesystems filesystems, ITestOutputHelper output)
    {
        _filesystems = filesystems;
        _output = output;
    }

    [FilesystemFact]
    public void Generated_cases_behave_like_MSBuilds_Copy()
    {
        (int first, int count) = GeneratedDifferential.SeedsFromEnvironment(CasesInCi);
        GeneratedReport report = GeneratedDifferential.Run(first, count, _filesystems.NewDirectory(FilesystemKind.Ext4, "generated"));
        _output.WriteLine(report.ToString());
        System.Console.Error.WriteLine(report.Summary); // for the lane logs: what ran, and what was skipped
        foreach (string detail in report.NotReproducedDetails)
        {
            // Not a failure, so the lane would not show it: the only record of a difference that did not recur.
            System.Console.Error.WriteLine(string.Join(System.Environment.NewLine, detail.Split(System.Environment.NewLine).Select(line => "generated cases (not reproduced): " + line)));
        }

        Assert.False(report.Failed, report.ToString());
        Assert.True(report.Same > 0, report.ToString());
        SkippedShare.AssertWithinShare(report);
    }

    /// <summary>
    /// The CI seeds keep drawing sources whose size (0) says nothing of their content where they exist
    /// (Linux: named pipes fed by a writer, /proc); elsewhere (the macOS job runs this class too) none is drawn.
    /// </summary>
    [Fact]
    public void Generated_cases_include_named_pipes_and_proc_files_as_sources_on_Linux()
    {
        // The seeds CI runs by default, whatever this process was asked to run.
        var cases = System.Linq.Enumerable.ToList(System.Linq.Enumerable.Select(System.Linq.Enumerable.Range(GeneratedDifferential.DefaultFirstSeed, CasesInCi), CaseGenerator.Make));
        bool HasPipe(GeneratedCase c) => c.Parameters.SourceFiles is string[] s && System.Array.IndexOf(s, "p/pipe") >= 0;
        bool HasProcFile(GeneratedCase c) => c.Parameters.SourceFiles is string[] s && System.Array.IndexOf(s, SpecialSources.ProcFile) >= 0;
        if (System.OperatingSystem.IsLinux())
        {
            Assert.Contains(cases, HasPipe);
            Assert.Contains(cases, HasProcFile);
        }
        else
        {
            Assert.DoesNotContain(cases, c => HasPipe(c) || HasProcFile(c));
        }
    }
}
