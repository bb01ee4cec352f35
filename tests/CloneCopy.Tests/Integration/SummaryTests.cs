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

    /// <summary>On ext4 moving the cache would clone nothing: CLC004's advice would be wrong there (PackageCacheAdviceTests has more cases).</summary>
    [FilesystemFact]
    public void A_package_cache_on_another_volume_is_not_diagnosed_where_the_outputs_cannot_clone()
    {
        TestRepository repository = NewRepository(FilesystemKind.Ext4);
        string otherVolumeCache = _filesystems.NewDirectory(FilesystemKind.SecondXfs, "nuget");

        var (code, log) = Dotnet.Run("build App/App.csproj -v:n -nologo -m:1", repository.Root, otherVolumeCache);

        Assert.True(code == 0, log);
        Assert.DoesNotContain("CLC004", log, StringComparison.Ordinal);
        Assert.Contains("different volumes:", Summaries(log)["App"].Line); // the cache's files did cross volumes
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

    /// <summary>
    /// The CI guard on a publish whose own copies are copies: the project is built on reflink XFS (Build's files are
    /// clones, so Build's summary has nothing to report) and published to an ext4 folder (Publish's files are copied).
    /// </summary>
    [FilesystemFact]
    public void The_CI_guard_fails_a_publish_whose_own_files_were_copied()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs);
        string published = Path.Combine(_filesystems.NewDirectory(FilesystemKind.Ext4, "published"), "out");

        var (code, log) = Dotnet.Run($"publish App/App.csproj -v:n -nologo -m:1 -tl:off -o \"{published}\" -p:CloneCopyRequireClones=error", repository.Root, repository.NuGetPackages);

        Assert.NotEqual(0, code);
        Match publish = Assert.Single(StageLine().Matches(log), m => m.Groups["stage"].Value == "Publish");
        Assert.True(publish.Groups["copied"].Success, publish.Value);
        Assert.DoesNotContain(StageLine().Matches(log), m => m.Groups["stage"].Value == string.Empty && m.Groups["copied"].Success);
        Assert.Matches(@"error CLC005: CloneCopy: CloneCopyRequireClones is set, but \d+ files? (was|were) copied instead of cloned", log);
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

    /// <summary>
    /// A Native AOT publish copies its executable and symbols in ILCompiler's own targets after Publish (CopyNativeBinary,
    /// _CopyAotSymbols), after Publish's line: such a copy reports itself as coming after Publish, not after Build.
    /// </summary>
    [FilesystemFact]
    public void A_copy_after_Publish_reports_itself_after_Publishs_line()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs)
            .Write("App/Directory.Build.targets", """
                <Project>
                  <Target Name="CopyNativeLikeILCompiler" AfterTargets="Publish">
                    <Copy SourceFiles="$(TargetPath)" DestinationFolder="$(PublishDir)native" />
                  </Target>
                </Project>
                """);

        var (code, log) = Dotnet.Run("publish App/App.csproj -v:n -nologo -m:1 -tl:off -o published", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, log);
        Match publish = Assert.Single(StageLine().Matches(log), m => m.Groups["stage"].Value == "Publish");
        Match after = Assert.Single(StageLine().Matches(log), m => m.Groups["stage"].Value == "after Publish");
        Assert.Equal("1", after.Groups["cloned"].Value);
        Assert.True(log.IndexOf(publish.Value, StringComparison.Ordinal) < log.IndexOf(after.Value, StringComparison.Ordinal), log);
        Assert.DoesNotContain("(after Build)", log, StringComparison.Ordinal);
    }

    /// <summary>
    /// Serilog's AotTestApp publishes in a target of its own after Build. Where CloneCopy's targets come after the
    /// project's body (a PackageReference, or injected as clonecopy-compare does), MSBuild runs that target before
    /// Build's summary: Build's copies must still get Build's line, as with the Sdk element in Directory.Build.props.
    /// </summary>
    [FilesystemTheory]
    [InlineData("package")]
    [InlineData("injected")]
    public void A_project_that_publishes_after_building_reports_its_build_copies_under_Build(string way)
    {
        TestRepository repository = new TestRepository(_filesystems.NewDirectory(FilesystemKind.Xfs, "summary"), _sdk)
            .Library("Lib")
            .Write("App/App.csproj", $$"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <OutputType>Exe</OutputType>
                    <TargetFramework>net10.0</TargetFramework>
                  </PropertyGroup>
                  <ItemGroup>
                    <ProjectReference Include="../Lib/Lib.csproj" />
                    {{(way == "package" ? $"<PackageReference Include=\"CloneCopy\" Version=\"{_sdk.Version}\" PrivateAssets=\"all\" />" : string.Empty)}}
                  </ItemGroup>
                  <Target Name="PublishOnBuild" AfterTargets="Build" DependsOnTargets="Publish" />
                </Project>
                """)
            .Write("App/Program.cs", "System.Console.WriteLine(Lib.Class1.Name);");
        string arguments = "-v:n -nologo -m:1 -tl:off";
        if (way == "injected")
        {
            string package = Path.Combine(repository.Root, "..", "injected-sdk");
            System.IO.Compression.ZipFile.ExtractToDirectory(_sdk.PackagePath, package);
            string injected = Path.Combine(repository.Root, "..", "injected.targets");
            File.WriteAllText(injected, $"""
                <Project>
                  <Import Project="{package}/Sdk/Sdk.props" />
                  <Import Project="{package}/Sdk/Sdk.targets" />
                </Project>
                """);
            arguments += $" -p:CustomAfterDirectoryBuildTargets={injected}";
        }

        var (code, log) = Dotnet.Run($"build App/App.csproj {arguments}", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, log);
        var app = StageLine().Matches(log).Where(m => m.Groups["project"].Value == "App").ToList();
        Match build = Assert.Single(app, m => !m.Groups["stage"].Success);
        Match publish = Assert.Single(app, m => m.Groups["stage"].Value == "Publish");
        Assert.True(int.Parse(build.Groups["cloned"].Value, System.Globalization.CultureInfo.InvariantCulture) > 0, build.Value);
        Assert.True(int.Parse(publish.Groups["cloned"].Value, System.Globalization.CultureInfo.InvariantCulture) > 0, publish.Value);
        Assert.True(log.IndexOf(build.Value, StringComparison.Ordinal) < log.IndexOf(publish.Value, StringComparison.Ordinal), log);
    }

    /// <summary>Scrutor builds for four frameworks: its four lines must say which is which; a single-framework project's line stays as it was.</summary>
    [FilesystemFact]
    public void A_multi_targeted_projects_lines_name_their_framework()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs)
            .Write("Lib/Lib.csproj", """
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <TargetFrameworks>net10.0;net8.0</TargetFrameworks>
                  </PropertyGroup>
                  <ItemGroup>
                    <PackageReference Include="Newtonsoft.Json" Version="13.0.1" />
                  </ItemGroup>
                </Project>
                """);

        var (code, log) = repository.Build("Lib/Lib.csproj");
        var (appCode, appLog) = repository.Build("App/App.csproj");

        Assert.True(code == 0, log);
        Assert.Matches(@"CloneCopy: \d+ files? cloned \([^)]*\).* \[Lib net10\.0\]", log);
        Assert.Matches(@"CloneCopy: \d+ files? cloned \([^)]*\).* \[Lib net8\.0\]", log);
        Assert.DoesNotMatch(@"\[Lib\]", log);
        Assert.True(appCode == 0, appLog);
        Assert.Matches(@"CloneCopy: \d+ files? cloned \([^)]*\).* \[App\]", appLog);
    }

    /// <summary>
    /// CloneCopyAtomicReplace changes what a reader of the outputs can see during a build, and nothing else in a console
    /// log shows a setting: each line of a build with it says so (Build's and Publish's), and no line of one without it.
    /// </summary>
    [FilesystemFact]
    public void With_atomic_replace_on_every_line_says_so_and_without_it_none_does()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs);

        var (code, log) = Dotnet.Run("publish App/App.csproj -v:n -nologo -m:1 -tl:off -o published -p:CloneCopyAtomicReplace=true", repository.Root, repository.NuGetPackages);
        var (againCode, againLog) = Dotnet.Run("publish App/App.csproj -v:n -nologo -m:1 -tl:off -o published", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, log);
        var lines = StageLine().Matches(log);
        Assert.Equal(["App", "App", "Lib"], lines.Select(m => m.Groups["project"].Value).Order());
        Assert.Contains(lines, m => m.Groups["stage"].Value == "Publish");
        Assert.All(lines, m => Assert.True(m.Groups["atomic"].Success, m.Value));
        Assert.True(againCode == 0, againLog);
        Assert.NotEmpty(StageLine().Matches(againLog));
        Assert.DoesNotContain("atomic replace", againLog, StringComparison.Ordinal);
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

    /// <summary>On ext4, where files are really copied, so the guard has something to say when it is on.</summary>
    [FilesystemTheory]
    [InlineData("false", false)]
    [InlineData("Warning", true)]
    public void The_documented_guard_values_are_accepted(string value, bool warns)
    {
        TestRepository repository = NewRepository(FilesystemKind.Ext4);

        var (code, log) = repository.Build("App/App.csproj", $"-p:CloneCopyRequireClones={value}");

        Assert.True(code == 0, log);
        Assert.DoesNotContain("CLC006", log);
        Assert.DoesNotContain("error CLC005", log);
        Assert.Equal(warns, log.Contains("warning CLC005: CloneCopy: CloneCopyRequireClones is set, but ", StringComparison.Ordinal));
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

    [GeneratedRegex(@"CloneCopy: (?<cloned>\d+) files? cloned \((?<size>[0-9.]+ [KMGT]?B) not written\)(, (?<copied>\d+) copied \([^)]*\))?(, \d+ linked)?(, \d+ up to date)?(, \d+ failed)?(?<atomic>, atomic replace on)? \[(?<project>[A-Za-z]+)\]")]
    private static partial Regex SummaryLine();

    [GeneratedRegex(@"CloneCopy( \((?<stage>Publish|Pack|after Build|after Publish|after Pack)\))?: (?<cloned>\d+) files? cloned \([0-9.]+ [KMGT]?B not written\)(, (?<copied>\d+) copied \([^)]*\))?(, \d+ linked)?(, \d+ up to date)?(, \d+ failed)?(?<atomic>, atomic replace on)? \[(?<project>[A-Za-z]+)\]")]
    private static partial Regex StageLine();

    [GeneratedRegex("Copying file from \"[^\"]+\" to \"[^\"]+\"\\.")]
    private static partial Regex CopyingLines();
}
