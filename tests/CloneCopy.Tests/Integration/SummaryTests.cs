using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>"Is it working?": the per-project summary lines, the package-cache diagnostic and the CI guard, in real builds.</summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed partial class SummaryTests
{
    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;

    public SummaryTests(LoopFilesystems filesystems, PackedSdk sdk)
    {
        _filesystems = filesystems;
        _sdk = sdk;
    }

    [FilesystemFact]
    public void Each_projects_summary_matches_the_clones_found_on_disk()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs);

        var (code, log) = repository.Build("App/App.csproj");

        Assert.True(code == 0, log);
        var summaries = Summaries(log);
        Assert.Equal(["App", "Lib"], summaries.Keys.Order());
        foreach (var (project, summary) in summaries)
        {
            var clonesOnDisk = TestRepository.CopiedPairs(log)
                .Where(c => c.Destination.StartsWith(Path.Combine(repository.Root, project) + "/", StringComparison.Ordinal))
                .Select(c => c.Destination).Distinct()
                .Where(d => new FileInfo(d).Length > 0 && ExtentMap.Read(d).Any(e => e.IsShared))
                .ToList();
            Assert.True(summary.Cloned > 0, summary.Line);
            Assert.Equal(clonesOnDisk.Count, summary.Cloned);
            Assert.Equal($"{SizeText.Format(clonesOnDisk.Sum(d => new FileInfo(d).Length))} not written", summary.NotWritten);
        }
    }

    [FilesystemFact]
    public void With_several_nodes_the_summaries_add_up_to_the_files_copied()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs)
            .Library("Other", extraItems: "<ProjectReference Include=\"../Lib/Lib.csproj\" />")
            .Write("all.slnx", "<Solution><Project Path=\"App/App.csproj\" /><Project Path=\"Lib/Lib.csproj\" /><Project Path=\"Other/Other.csproj\" /></Solution>");

        var (code, log) = Dotnet.Run("build all.slnx -v:n -nologo -m:3", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, log);
        var summaries = Summaries(log);
        Assert.Equal(["App", "Lib", "Other"], summaries.Keys.Order());
        int transferred = CopyingLines().Count(log);
        Assert.Equal(transferred, summaries.Values.Sum(s => s.Cloned + s.Copied));
    }

    [FilesystemFact]
    public void A_package_cache_on_another_volume_is_diagnosed_once_with_the_fix()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs);
        string otherVolumeCache = _filesystems.NewDirectory(FilesystemKind.SecondXfs, "nuget");

        var (code, log) = Dotnet.Run("build App/App.csproj -v:n -nologo -m:1", repository.Root, otherVolumeCache);

        Assert.True(code == 0, log);
        Assert.Single(Regex.Matches(log, "CLC004"));
        Assert.Contains("NUGET_PACKAGES", log);
        Assert.Contains("different volumes:", Summaries(log)["App"].Line);
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4, false)]
    [InlineData(FilesystemKind.Xfs, true)]
    public void The_guard_fails_a_build_that_copies_and_passes_one_that_clones(FilesystemKind kind, bool expectSuccess)
    {
        TestRepository repository = NewRepository(kind);

        var (code, log) = repository.Build("App/App.csproj", "-p:CloneCopyRequireClones=error");

        Assert.Equal(expectSuccess, code == 0);
        Assert.Equal(!expectSuccess, log.Contains("error CLC005", StringComparison.Ordinal));
    }

    [FilesystemFact]
    public void Publish_copies_have_their_own_line_and_all_lines_add_up_to_the_files_written()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs);

        var (code, log) = Dotnet.Run("publish App/App.csproj -v:n -nologo -m:1 -tl:off -o published", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, log);
        Match publish = Assert.Single(StageLine().Matches(log), m => m.Groups["stage"].Value == "Publish");
        Assert.Equal("App", publish.Groups["project"].Value);
        Assert.True(int.Parse(publish.Groups["cloned"].Value, System.Globalization.CultureInfo.InvariantCulture) > 0, publish.Value);
        int counted = StageLine().Matches(log).Sum(m => int.Parse(m.Groups["cloned"].Value, System.Globalization.CultureInfo.InvariantCulture) + (m.Groups["copied"].Success ? int.Parse(m.Groups["copied"].Value, System.Globalization.CultureInfo.InvariantCulture) : 0));
        Assert.Equal(CopyingLines().Count(log), counted);
        string publishedLib = Path.Combine(repository.Root, "published", "Lib.dll");
        Assert.True(ExtentMap.Read(publishedLib).All(e => e.IsShared), $"{publishedLib} is not a clone");
    }

    [FilesystemFact]
    public void A_users_copy_after_Build_reports_itself_after_Builds_summary()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs)
            .Write("App/Directory.Build.targets", """
                <Project>
                  <Target Name="CopyToDrop" AfterTargets="Build">
                    <Copy SourceFiles="$(TargetPath)" DestinationFolder="$(MSBuildProjectDirectory)/drop" />
                  </Target>
                </Project>
                """);

        var (code, log) = repository.Build("App/App.csproj");

        Assert.True(code == 0, log);
        Assert.Matches(@"CloneCopy \(after Build\): 1 file cloned \([0-9.]+ [KMGT]?B not written\) \[App\]", log);
    }

    [FilesystemTheory]
    [InlineData("eror")]
    [InlineData("true")]
    [InlineData("bogus")]
    public void A_guard_value_CloneCopy_does_not_know_fails_the_build_even_where_everything_clones(string value)
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs);

        var (code, log) = repository.Build("App/App.csproj", $"-p:CloneCopyRequireClones={value}");

        Assert.NotEqual(0, code);
        Assert.Contains($"error CLC006: CloneCopy: CloneCopyRequireClones='{value}' is not a value CloneCopy knows. Use one of: 'error', 'warning', 'false' or empty (off).", log);
    }

    [FilesystemTheory]
    [InlineData("false")]
    [InlineData("Warning")]
    public void The_documented_guard_values_are_accepted(string value)
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs);

        var (code, log) = repository.Build("App/App.csproj", $"-p:CloneCopyRequireClones={value}");

        Assert.True(code == 0, log);
        Assert.DoesNotContain("CLC006", log);
    }

    private TestRepository NewRepository(FilesystemKind kind) => TestRepository.AppWithLibrary(_filesystems.NewDirectory(kind, "summary"), _sdk);

    private sealed record Summary(string Line, int Cloned, string NotWritten, int Copied);

    /// <summary>The normal-importance summary line of each project, by project name.</summary>
    private static Dictionary<string, Summary> Summaries(string log) =>
        SummaryLine().Matches(log).Select(m => new
        {
            Project = m.Groups["project"].Value,
            Summary = new Summary(m.Value, int.Parse(m.Groups["cloned"].Value, System.Globalization.CultureInfo.InvariantCulture), m.Groups["size"].Value + " not written",
                m.Groups["copied"].Success ? int.Parse(m.Groups["copied"].Value, System.Globalization.CultureInfo.InvariantCulture) : 0),
        }).GroupBy(x => x.Project).ToDictionary(g => g.Key, g => g.Last().Summary);

    [GeneratedRegex(@"CloneCopy: (?<cloned>\d+) files? cloned \((?<size>[0-9.]+ [KMGT]?B) not written\)(, (?<copied>\d+) copied \([^)]*\))?(, \d+ linked)?(, \d+ up to date)?(, \d+ failed)? \[(?<project>[A-Za-z]+)\]")]
    private static partial Regex SummaryLine();

    [GeneratedRegex(@"CloneCopy( \((?<stage>Publish|Pack|after Build)\))?: (?<cloned>\d+) files? cloned \([0-9.]+ [KMGT]?B not written\)(, (?<copied>\d+) copied \([^)]*\))?(, \d+ linked)?(, \d+ up to date)?(, \d+ failed)? \[(?<project>[A-Za-z]+)\]")]
    private static partial Regex StageLine();

    [GeneratedRegex("Copying file from \"[^\"]+\" to \"[^\"]+\"\\.")]
    private static partial Regex CopyingLines();
}
