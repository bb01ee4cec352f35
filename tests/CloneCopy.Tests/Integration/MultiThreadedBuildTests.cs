using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// Real builds in MSBuild's multithreaded mode (`dotnet build -mt`): projects build on threads of one process,
/// and a task not marked [MSBuildMultiThreadableTask] is sent to a task-host process. CloneCopy's tasks must
/// run in-process (no "Launching task ... in an external task host" for them), clone as without -mt, and keep
/// one summary line per project build, the CI guard, CLC004 once, and the per-project settings.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed partial class MultiThreadedBuildTests
{
    private static readonly string[] CloneCopyTasks = ["Copy", "CloneCopySummary", "CloneCopyStage", "CloneCopySettings"];

    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;

    public MultiThreadedBuildTests(LoopFilesystems filesystems, PackedSdk sdk)
    {
        _filesystems = filesystems;
        _sdk = sdk;
    }

    [FilesystemFact]
    public void The_sample_repository_runs_CloneCopy_in_process_clones_and_says_one_line_per_project()
    {
        string root = SampleRepository(FilesystemKind.Xfs);

        var (code, log) = Dotnet.Run("build Sample.slnx -mt -v:d -nologo -tl:off", root, Path.Combine(root, ".nuget-packages"));

        Assert.True(code == 0, log);
        AssertInProcess(log);
        var lines = SummaryLines(log);
        Assert.Equal(["App", "LibA", "LibB"], lines.Select(l => l.Project).Order());
        Assert.All(lines, l => Assert.True(l.Cloned > 0, l.Line));
        string app = Path.Combine(root, "src", "App", "bin", "Debug", "net10.0");
        Assert.True(ExtentMap.SharesAllExtents(Path.Combine(root, "src", "LibA", "bin", "Debug", "net10.0", "LibA.dll"), Path.Combine(app, "LibA.dll"), out string extents), extents);
        Assert.True(ExtentMap.SharesAllExtents(Path.Combine(root, "src", "App", "assets", "data.csv"), Path.Combine(app, "assets", "data.csv"), out extents), extents);
    }

    [FilesystemFact]
    public void Many_projects_on_several_threads_each_get_their_own_line_and_rebuild_incrementally()
    {
        TestRepository repository = ManyProjects(FilesystemKind.Xfs, libraries: 8);

        var (code, log) = Dotnet.Run("build all.slnx -mt -m:2 -v:n -nologo -tl:off", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, log);
        var lines = SummaryLines(log);
        string[] projects = ["App", .. Enumerable.Range(1, 8).Select(i => $"L{i}")];
        Assert.Equal(projects.Order(), lines.Select(l => l.Project).Order());
        Assert.All(lines, l => Assert.True(l.Cloned > 0, l.Line));
        Assert.Equal(CopyingLine().Count(log), lines.Sum(l => l.Cloned + l.Copied));
        for (int i = 1; i <= 8; i++)
        {
            string library = Path.Combine(repository.Root, $"L{i}", "bin", "Debug", "net10.0", $"L{i}.dll");
            string inApp = Path.Combine(repository.Root, "App", "bin", "Debug", "net10.0", $"L{i}.dll");
            Assert.True(ExtentMap.SharesAllExtents(library, inApp, out string extents), extents);
        }

        var (again, incremental) = Dotnet.Run("build all.slnx -mt -m:2 -v:n -nologo -tl:off", repository.Root, repository.NuGetPackages);

        Assert.True(again == 0, incremental);
        var second = SummaryLines(incremental);
        Assert.Equal(projects.Order(), second.Select(l => l.Project).Order());
        Assert.All(second, l => Assert.True(l.Cloned == 0 && l.Copied == 0 && l.Line.Contains("up to date", StringComparison.Ordinal), l.Line));
        Assert.Empty(CopyingLine().Matches(incremental));
    }

    [FilesystemTheory]
    [InlineData("")]
    [InlineData("-mt")]
    [InlineData("-mt -m:2")]
    public void The_guard_fails_a_build_that_copies_with_or_without_mt(string mode)
    {
        TestRepository repository = TestRepository.AppWithLibrary(_filesystems.NewDirectory(FilesystemKind.Ext4, "mt-guard"), _sdk);

        var (code, log) = Dotnet.Run($"build App/App.csproj {mode} -v:n -nologo -tl:off -p:CloneCopyRequireClones=error", repository.Root, repository.NuGetPackages);

        Assert.NotEqual(0, code);
        Assert.Contains("error CLC005", log);
        Assert.DoesNotContain("CLC007", log);
    }

    [FilesystemFact]
    public void A_package_cache_on_another_volume_is_diagnosed_once_per_build()
    {
        TestRepository repository = TestRepository.AppWithLibrary(_filesystems.NewDirectory(FilesystemKind.Xfs, "mt-cache"), _sdk);
        string otherVolumeCache = _filesystems.NewDirectory(FilesystemKind.SecondXfs, "nuget-mt");

        var (code, log) = Dotnet.Run("build App/App.csproj -mt -v:n -nologo -tl:off", repository.Root, otherVolumeCache);

        Assert.True(code == 0, log);
        Assert.Single(Regex.Matches(log, "CLC004"));
        Assert.Equal(["App", "Lib"], SummaryLines(log).Select(l => l.Project).Order());
    }

    [FilesystemFact]
    public void Clones_instead_of_links_applies_to_the_project_that_asks_for_it_only()
    {
        TestRepository repository = TestRepository.AppWithLibrary(_filesystems.NewDirectory(FilesystemKind.Xfs, "mt-links"), _sdk)
            .Write("Other/Other.csproj", """
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net10.0</TargetFramework></PropertyGroup>
                  <ItemGroup><ProjectReference Include="../Lib/Lib.csproj" /></ItemGroup>
                </Project>
                """)
            .Write("Other/Program.cs", "System.Console.WriteLine(Lib.Class1.Name);")
            .Write("App/Directory.Build.props", "<Project><Import Project=\"../Directory.Build.props\" /><PropertyGroup><CloneCopyClonesInsteadOfLinks>true</CloneCopyClonesInsteadOfLinks></PropertyGroup></Project>")
            .Write("all.slnx", "<Solution><Project Path=\"App/App.csproj\" /><Project Path=\"Lib/Lib.csproj\" /><Project Path=\"Other/Other.csproj\" /></Solution>");

        var (code, log) = Dotnet.Run("build all.slnx -mt -m:2 -v:n -nologo -tl:off -p:CreateHardLinksForCopyLocalIfPossible=true", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, log);
        string inApp = Path.Combine(repository.Root, "App", "bin", "Debug", "net10.0", "Newtonsoft.Json.dll");
        string inOther = Path.Combine(repository.Root, "Other", "bin", "Debug", "net10.0", "Newtonsoft.Json.dll");
        Assert.Equal(1, FileSystemOps.LinkCount(inApp));
        Assert.True(ExtentMap.SharesAllExtents(Path.Combine(repository.NuGetPackages, "newtonsoft.json/13.0.1/lib/netstandard2.0/Newtonsoft.Json.dll"), inApp, out string extents), extents);
        Assert.True(FileSystemOps.LinkCount(inOther) > 1, "expected MSBuild's hard link in Other, which did not set the switch");
        Assert.Contains(SummaryLines(log), l => l.Project == "App" && l.Line.Contains("in place of links", StringComparison.Ordinal));
        Assert.DoesNotContain(SummaryLines(log), l => l.Project == "Other" && l.Line.Contains("in place of links", StringComparison.Ordinal));
    }

    [FilesystemFact]
    public void Publish_under_mt_has_its_own_line_for_the_project_it_publishes()
    {
        TestRepository repository = TestRepository.AppWithLibrary(_filesystems.NewDirectory(FilesystemKind.Xfs, "mt-publish"), _sdk);

        var (code, log) = Dotnet.Run("publish App/App.csproj -mt -v:n -nologo -tl:off -o published", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, log);
        Assert.Matches(@"CloneCopy \(Publish\): [1-9][0-9]* files? cloned \([0-9.]+ [KMGT]?B not written\).* \[App\]", log);
        Assert.Equal(["App", "Lib"], SummaryLines(log).Select(l => l.Project).Order());
        string publishedLib = Path.Combine(repository.Root, "published", "Lib.dll");
        Assert.True(ExtentMap.Read(publishedLib).All(e => e.IsShared), $"{publishedLib} is not a clone");
    }

    /// <summary>
    /// MSBuild logs "Launching task X ... in an external task host" (at -v:d) for every task it sends out of
    /// process under -mt. Some of the SDK's own tasks are sent there, which shows the message is visible; none
    /// of CloneCopy's may be.
    /// </summary>
    private static void AssertInProcess(string log)
    {
        Assert.Matches("Launching task \"[A-Za-z]+\" from assembly \"[^\"]+\" in an external task host", log);
        foreach (string task in CloneCopyTasks)
        {
            Assert.DoesNotContain($"Launching task \"{task}\"", log);
        }
    }

    private string SampleRepository(FilesystemKind kind)
    {
        string root = _filesystems.NewDirectory(kind, "mt-sample");
        CopyDirectory(Path.Combine(_sdk.RepositoryRoot, "samples", "Repository"), root);
        string config = Path.Combine(root, "NuGet.config");
        File.WriteAllText(config, File.ReadAllText(config).Replace("../../artifacts/packages", _sdk.Feed, StringComparison.Ordinal));
        // X.Y.Z stands for the version a user takes; the copy pins the one packed, as scripts/lib/packages.sh's copy_sample does.
        string globalJson = Path.Combine(root, "global.json");
        string pinned = File.ReadAllText(globalJson).Replace("\"X.Y.Z\"", $"\"{_sdk.Version}\"", StringComparison.Ordinal);
        Assert.Contains(_sdk.Version, pinned, StringComparison.Ordinal);
        File.WriteAllText(globalJson, pinned);
        return root;
    }

    private TestRepository ManyProjects(FilesystemKind kind, int libraries)
    {
        var repository = new TestRepository(_filesystems.NewDirectory(kind, "mt-many"), _sdk)
            .Write("Directory.Build.props", "<Project><Sdk Name=\"CloneCopy\" /></Project>")
            .WriteGlobalJson(msbuildSdks: true);
        var references = new List<string>();
        for (int i = 1; i <= libraries; i++)
        {
            // Each library references the one before it, so copies to bin/ folders overlap across threads.
            string previous = i > 1 ? $"<ProjectReference Include=\"../L{i - 1}/L{i - 1}.csproj\" />" : string.Empty;
            repository.Library($"L{i}", extraItems: previous + "<None Include=\"data/**\" CopyToOutputDirectory=\"PreserveNewest\" />")
                .Content($"L{i}/data/blob{i}.bin", 50_000 + i * 1000, i);
            references.Add($"<ProjectReference Include=\"../L{i}/L{i}.csproj\" />");
        }

        repository.Write("App/App.csproj", $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net10.0</TargetFramework></PropertyGroup>
                  <ItemGroup>{string.Concat(references)}</ItemGroup>
                </Project>
                """)
            .Write("App/Program.cs", "System.Console.WriteLine(L1.Class1.Name);")
            .Write("all.slnx", "<Solution><Project Path=\"App/App.csproj\" />" + string.Concat(Enumerable.Range(1, libraries).Select(i => $"<Project Path=\"L{i}/L{i}.csproj\" />")) + "</Solution>");
        return repository;
    }

    private static void CopyDirectory(string from, string to)
    {
        foreach (string file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            string relative = Path.GetRelativePath(from, file);
            if (relative.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"))
            {
                continue;
            }

            string target = Path.Combine(to, relative);
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }

    private sealed record Summary(string Line, string Project, int Cloned, int Copied);

    /// <summary>The Build summary lines ("CloneCopy: N files cloned (...) [Project]"), one per project build.</summary>
    private static List<Summary> SummaryLines(string log) =>
        SummaryLine().Matches(log).Select(m => new Summary(m.Value, m.Groups["project"].Value, int.Parse(m.Groups["cloned"].Value, System.Globalization.CultureInfo.InvariantCulture),
            m.Groups["copied"].Success ? int.Parse(m.Groups["copied"].Value, System.Globalization.CultureInfo.InvariantCulture) : 0)).ToList();

    [GeneratedRegex(@"CloneCopy: (?<cloned>\d+) files? cloned \([0-9.]+ [KMGT]?B not written[^)]*\)(, (?<copied>\d+) copied \([^)]*\))?(, \d+ linked)?(, \d+ up to date)?(, \d+ failed)? \[(?<project>[A-Za-z0-9]+)\]")]
    private static partial Regex SummaryLine();

    [GeneratedRegex("Copying file from \"[^\"]+\" to \"[^\"]+\"\\.")]
    private static partial Regex CopyingLine();
}
