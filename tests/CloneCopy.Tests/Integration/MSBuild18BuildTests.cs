using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// A real build as a user of the .NET 11 SDK gets it: Microsoft.Build 18.12.2's engine on the .NET 11.0.0 runtime
/// (<see cref="MSBuild18"/>) restores and builds a Microsoft.NET.Sdk repository that takes CloneCopy as the README says
/// (<c>&lt;Sdk Name="CloneCopy" /&gt;</c> in Directory.Build.props, its version in global.json's msbuild-sdks, resolved by
/// NuGet's SDK resolver from the packed package in the repository's NuGet.config). MSBuild's common targets register
/// the built-in Copy (Microsoft.Common.tasks); every Copy must run CloneCopy's, from the precompiled copy for .NET 11.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed partial class MSBuild18BuildTests
{
    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;
    private readonly MSBuild18 _msbuild;

    public MSBuild18BuildTests(LoopFilesystems filesystems, PackedSdk sdk, MSBuild18 msbuild)
    {
        _filesystems = filesystems;
        _sdk = sdk;
        _msbuild = msbuild;
    }

    [FilesystemTheory]
    [InlineData("")]
    [InlineData("--mt")]
    public void MSBuild_18_12_on_NET_11_runs_CloneCopys_Copy_from_the_NET_11_image_clones_and_says_one_line_per_project(string mode)
    {
        TestRepository repository = TestRepository.AppWithLibrary(_filesystems.NewDirectory(FilesystemKind.Xfs, "msbuild18"), _sdk);

        var (code, log) = _msbuild.Run($"{mode} App/App.csproj", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, log);
        Assert.Contains("MSBuild18Host: .NET 11.0.0, Microsoft.Build 18.12.2", log);
        Assert.Contains($"multithreaded {mode == "--mt"}", log);
        // Every Copy of the build (the SDK's, the common targets') is CloneCopy's, and from the image for .NET 11.
        string expected = Path.Combine(repository.NuGetPackages, "clonecopy", _sdk.Version.ToLowerInvariant(), "tasks", "net10.0", "dotnet11", "linux-x64", "CloneCopy.dll");
        Assert.Equal([expected], TestRepository.CopyTaskAssemblies(log));
        Assert.Equal(["App", "Lib"], SummaryLines(log).Select(l => l.Project).Order());
        Assert.All(SummaryLines(log), l => Assert.True(l.Cloned > 0 && l.Copied == 0, l.Line));
        string app = Path.Combine(repository.Root, "App", "bin", "Debug", "net10.0");
        Assert.True(ExtentMap.SharesAllExtents(Path.Combine(repository.Root, "Lib", "bin", "Debug", "net10.0", "Lib.dll"), Path.Combine(app, "Lib.dll"), out string extents), extents);
        Assert.True(ExtentMap.SharesAllExtents(Path.Combine(repository.Root, "App", "assets", "logo.bin"), Path.Combine(app, "assets", "logo.bin"), out extents), extents);
        // The tasks ran in this engine's process: it loaded the task assembly, and sent none of CloneCopy's tasks to a task
        // host (under -mt it sends the SDK's tasks without the attribute there, which shows the mode is on).
        Assert.Contains($"MSBuild18Host: CloneCopy loaded in this process from {expected}", log);
        if (mode == "--mt")
        {
            Assert.Matches("Launching task \"[A-Za-z]+\" from assembly \"[^\"]+\" in an external task host", log);
        }

        foreach (string task in new[] { "Copy", "CloneCopySummary", "CloneCopyStage", "CloneCopySettings" })
        {
            Assert.DoesNotContain($"Launching task \"{task}\"", log);
        }
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4, "")]
    [InlineData(FilesystemKind.Ext4, "--mt")]
    [InlineData(FilesystemKind.Xfs, "")]
    [InlineData(FilesystemKind.Xfs, "--mt")]
    public void The_guard_fails_the_build_that_copies_and_passes_the_one_that_clones(FilesystemKind kind, string mode)
    {
        TestRepository repository = TestRepository.AppWithLibrary(_filesystems.NewDirectory(kind, "msbuild18-guard"), _sdk);

        var (code, log) = _msbuild.Run($"{mode} -p:CloneCopyRequireClones=error App/App.csproj", repository.Root, repository.NuGetPackages);

        if (kind == FilesystemKind.Ext4)
        {
            Assert.True(code != 0, log);
            Assert.Contains("error CLC005", log);
        }
        else
        {
            Assert.True(code == 0, log);
            Assert.DoesNotContain("CLC005", log);
            Assert.All(SummaryLines(log), l => Assert.True(l.Cloned > 0 && l.Copied == 0, l.Line));
            Assert.True(ExtentMap.SharesAllExtents(
                Path.Combine(repository.Root, "Lib", "bin", "Debug", "net10.0", "Lib.dll"),
                Path.Combine(repository.Root, "App", "bin", "Debug", "net10.0", "Lib.dll"),
                out string extents), extents);
        }

        Assert.DoesNotContain("CLC007", log);
    }

    [FilesystemTheory]
    [InlineData("")]
    [InlineData("--mt")]
    public void Three_builds_in_one_process_each_see_their_own_volume_summary_and_read_back(string mode)
    {
        // As MSBuild Server keeps one process for many builds: the folder the repository lives in is a new filesystem for
        // each build, reflink XFS, then ext4, then XFS again, on the same loop device where the machine allows (so the
        // same device number: a verdict or a read-back remembered by device from an earlier build would be wrong).
        // What each build must say: clones on XFS, "cannot clone" on ext4; its own counts; a read-back of its first clone
        // (pread64 on a destination under bin/, seen by strace: a clone that succeeds is not logged otherwise).
        FilesystemKind[] kinds = [FilesystemKind.Xfs, FilesystemKind.Ext4, FilesystemKind.Xfs];
        using var mount = new ReplaceableMount();
        string root = mount.Mount(kinds[0]);
        AppWithLibraryWithoutPackages(root);
        string trace = Path.Combine(mount.Scratch, "calls.trace");
        var devices = new List<string> { mount.Device };
        var traceEnds = new List<long>();

        // The process runs outside the mount and keeps its package cache outside it, as a build server's process is not
        // in any one repository: the task assembly it loaded from the cache stays mapped, and the folder must unmount.
        var (code, log) = _msbuild.Run(
            $"{mode} --builds 3 \"{Path.Combine(root, "App", "App.csproj")}\"",
            mount.Scratch,
            Path.Combine(mount.Scratch, "nuget-packages"),
            strace: trace,
            betweenBuilds: build =>
            {
                // The build before has ended: its files checked, then the next filesystem mounted in the same place and the
                // repository written fresh onto it.
                AssertClonedOrCopied(root, kinds[build - 2]);
                traceEnds.Add(new FileInfo(trace).Length);
                mount.Mount(kinds[build - 1]);
                devices.Add(mount.Device);
                AppWithLibraryWithoutPackages(root);
            });

        Assert.True(code == 0, log);
        AssertClonedOrCopied(root, kinds[2]);
        traceEnds.Add(new FileInfo(trace).Length);
        string[] logs = Regex.Split(log, "MSBuild18Host: build [0-9]: succeeded");
        string context = $"{mode}, devices {string.Join(", ", devices)}";
        long start = 0;
        for (int build = 0; build < 3; build++)
        {
            string[] calls = ReadRange(trace, start, traceEnds[build]).Split('\n');
            start = traceEnds[build];
            var (clones, readBacks) = CloneTrace.ClonesAndReadBacks(calls);
            var lines = SummaryLines(logs[build]);
            Assert.True(lines.Select(l => l.Project).Order().SequenceEqual(["App", "Lib"]), $"build {build + 1} ({context}): {string.Join(" | ", lines.Select(l => l.Line))}");
            if (kinds[build] == FilesystemKind.Xfs)
            {
                Assert.All(lines, l => Assert.True(l.Cloned > 0 && l.Copied == 0, $"build {build + 1} ({context}): {l.Line}"));
                Assert.True(readBacks > 0, $"build {build + 1} read no clone back ({context}; {clones} clones)");
            }
            else
            {
                Assert.All(lines, l => Assert.True(l.Cloned == 0 && l.Line.Contains("the filesystem cannot clone", StringComparison.Ordinal), $"build {build + 1} ({context}): {l.Line}"));
            }
        }
    }

    /// <summary>The README's way in (Directory.Build.props and global.json), an app and a library, no package of their own.</summary>
    private TestRepository AppWithLibraryWithoutPackages(string root) =>
        new TestRepository(root, _sdk)
            .Write("Directory.Build.props", "<Project><Sdk Name=\"CloneCopy\" /></Project>")
            .WriteGlobalJson(msbuildSdks: true)
            .Library("Lib")
            .Content("App/assets/logo.bin", 300_000, 1)
            .Write("App/App.csproj", """
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <OutputType>Exe</OutputType>
                    <TargetFramework>net10.0</TargetFramework>
                  </PropertyGroup>
                  <ItemGroup>
                    <ProjectReference Include="../Lib/Lib.csproj" />
                    <None Include="assets/**" CopyToOutputDirectory="PreserveNewest" />
                  </ItemGroup>
                </Project>
                """)
            .Write("App/Program.cs", "System.Console.WriteLine(Lib.Class1.Name);");

    private static void AssertClonedOrCopied(string root, FilesystemKind kind)
    {
        string library = Path.Combine(root, "Lib", "bin", "Debug", "net10.0", "Lib.dll");
        string inApp = Path.Combine(root, "App", "bin", "Debug", "net10.0", "Lib.dll");
        if (kind == FilesystemKind.Xfs)
        {
            Assert.True(ExtentMap.SharesAllExtents(library, inApp, out string extents), extents);
        }
        else
        {
            Assert.Equal(File.ReadAllBytes(library), File.ReadAllBytes(inApp));
        }
    }

    private static string ReadRange(string path, long start, long end)
    {
        using var stream = File.OpenRead(path);
        stream.Position = start;
        var buffer = new byte[end - start];
        stream.ReadExactly(buffer);
        return System.Text.Encoding.UTF8.GetString(buffer);
    }

    private static List<(string Project, int Cloned, int Copied, string Line)> SummaryLines(string log) =>
        SummaryLine().Matches(log)
            .Select(m => (m.Groups["project"].Value, int.Parse(m.Groups["cloned"].Value, System.Globalization.CultureInfo.InvariantCulture), m.Groups["copied"].Success ? int.Parse(m.Groups["copied"].Value, System.Globalization.CultureInfo.InvariantCulture) : 0, m.Value))
            .ToList();

    [GeneratedRegex(@"CloneCopy: (?<cloned>\d+) files? cloned \([0-9.]+ [KMGT]?B not written[^)]*\)(, (?<copied>\d+) copied \([^)]*\))?(, \d+ linked)?(, \d+ up to date)?(, \d+ failed)? \[(?<project>[A-Za-z0-9]+)\]")]
    private static partial Regex SummaryLine();
}
