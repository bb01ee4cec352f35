using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// Real builds the way a user's `dotnet build` runs them (<see cref="MSBuildServerSession"/>): through the MSBuild Server,
/// with worker nodes reused from one build to the next, so the processes that load CloneCopy live across builds. Each
/// build must still see its own filesystem, say its own summary, verdicts and guard, and read its own first clone back;
/// -mt (typed, from Directory.Build.rsp, or switched on for every build) runs through the same server; a build cancelled
/// on the server leaves nothing the next one trips on. Each project says which process built it, so reuse is seen, not
/// assumed; every test ends its server and nodes and checks that none is left.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed partial class MSBuildServerBuildTests
{
    private static readonly string[] Projects = ["App1", "App2", "Lib"];

    private readonly PackedSdk _sdk;

    public MSBuildServerBuildTests(PackedSdk sdk) => _sdk = sdk;

    [FilesystemFact]
    public void Builds_through_one_server_and_reused_nodes_each_see_their_own_filesystem_summary_guard_and_read_back()
    {
        // XFS, then ext4, then XFS again in the same folder (on the same loop device where the machine allows, so the same
        // device number), the repository written fresh onto each; three builds with -m:2 through one server.
        FilesystemKind[] kinds = [FilesystemKind.Xfs, FilesystemKind.Ext4, FilesystemKind.Xfs];
        using var mount = new ReplaceableMount();
        using var session = new MSBuildServerSession(Path.Combine(mount.Scratch, "nuget-packages"));
        string root = mount.Mount(kinds[0]);
        AppsWithLibrary(root);
        var pidsAfterFirst = new HashSet<int>();
        var projectProcesses = new List<int>();
        int server = 0;
        for (int build = 0; build < kinds.Length; build++)
        {
            string context = $"build {build + 1} on {kinds[build]}";
            if (build > 0)
            {
                mount.Mount(kinds[build]);
                AppsWithLibrary(root);
            }

            // From the second build on, strace attaches to the server for the whole build (its in-process node builds projects
            // too). Only to the server: a worker node held by ptrace answers the server's handshake too late to be reused.
            using AttachedTrace? trace = build == 0 ? null : new AttachedTrace(Path.Combine(mount.Scratch, $"build{build + 1}.trace"), [server]);

            // The client runs outside the mount, as a server is in no one repository: the folder must unmount afterwards.
            var (code, log) = session.Run($"build \"{Path.Combine(root, "all.slnx")}\" -m:2 -v:n -nologo -tl:off -p:CloneCopyRequireClones=warning", mount.Scratch);

            string[]? calls = trace?.Stop();
            Assert.True(code == 0, $"{context}:{Environment.NewLine}{log}");
            var processes = session.Processes();
            Assert.Contains(processes, p => p.NodeMode == 8);
            var built = ProjectProcesses(log);
            Assert.Equal(Projects, built.Keys.Order());
            if (build == 0)
            {
                pidsAfterFirst.UnionWith(processes.Select(p => p.Pid));
                server = processes.Single(p => p.NodeMode == 8).Pid;
            }
            else
            {
                // The same processes as the first build: none started for this one.
                Assert.True(built.Values.All(pidsAfterFirst.Contains), $"{context}: projects built in {string.Join(", ", built)}, the first build's processes {string.Join(", ", pidsAfterFirst)}");
            }

            projectProcesses.AddRange(built.Values);
            var lines = SummaryLines(log);
            Assert.True(lines.Select(l => l.Project).Order().SequenceEqual(Projects), $"{context}: {string.Join(" | ", lines.Select(l => l.Line))}");
            if (kinds[build] == FilesystemKind.Xfs)
            {
                Assert.All(lines, l => Assert.True(l.Cloned > 0 && l.Copied == 0, $"{context}: {l.Line}"));
                Assert.DoesNotContain("CLC005", log);
                Assert.True(ExtentMap.SharesAllExtents(LibIn(root, "Lib"), LibIn(root, "App1"), out string extents), $"{context}: {extents}");
                Assert.True(ExtentMap.SharesAllExtents(Path.Combine(root, "App2", "assets", "logo.bin"), Path.Combine(root, "App2", "bin", "Debug", "net10.0", "assets", "logo.bin"), out extents), $"{context}: {extents}");
                if (calls is not null && built.ContainsValue(server))
                {
                    var (clones, readBacks) = CloneTrace.ClonesAndReadBacks(calls);
                    Assert.True(clones > 0 && readBacks > 0, $"{context}: {clones} clones, {readBacks} read back in the reused server ({string.Join(", ", built)})");
                }
            }
            else
            {
                Assert.All(lines, l => Assert.True(l.Cloned == 0 && l.Line.Contains("the filesystem cannot clone", StringComparison.Ordinal), $"{context}: {l.Line}"));
                Assert.Equal(Projects, CiGuardWarnings().Matches(log).Select(m => m.Groups["project"].Value).Distinct().Order());
                Assert.Equal(File.ReadAllBytes(LibIn(root, "Lib")), File.ReadAllBytes(LibIn(root, "App1")));
                Assert.Equal(0, CloneTrace.ClonesAndReadBacks(calls!).Clones);
            }
        }

        // Both kinds of reused process built projects: the server itself (its in-process node) and a worker node.
        var modes = session.Processes().ToDictionary(p => p.Pid, p => p.NodeMode);
        Assert.Contains(projectProcesses, pid => modes.GetValueOrDefault(pid) == 8);
        Assert.Contains(projectProcesses, pid => modes.GetValueOrDefault(pid) == 1);
        session.ShutDown();
    }

    [FilesystemFact]
    public void Multithreaded_builds_typed_read_from_Directory_Build_rsp_or_on_for_every_build_run_through_one_server()
    {
        // -mt typed; then from Directory.Build.rsp (nobody typed it); then MSBUILDFORCEMULTITHREADED=1, as if -mt were the
        // default (MSBuild 18.9's switch for it). XFS, ext4, XFS: each build its own verdicts and guard, every project
        // built in the server's own process, CloneCopy's tasks never sent to a task host.
        FilesystemKind[] kinds = [FilesystemKind.Xfs, FilesystemKind.Ext4, FilesystemKind.Xfs];
        using var mount = new ReplaceableMount();
        using var session = new MSBuildServerSession(Path.Combine(mount.Scratch, "nuget-packages"));
        string root = mount.Mount(kinds[0]);
        int? server = null;
        for (int build = 0; build < kinds.Length; build++)
        {
            string context = $"build {build + 1} on {kinds[build]}";
            if (build > 0)
            {
                mount.Mount(kinds[build]);
            }

            AppsWithLibrary(root);
            string typed = build == 0 ? "-mt" : string.Empty;
            if (build == 1)
            {
                File.WriteAllText(Path.Combine(root, "Directory.Build.rsp"), "-mt\n");
            }

            var environment = build == 2 ? new Dictionary<string, string> { ["MSBUILDFORCEMULTITHREADED"] = "1" } : null;
            var (code, log) = session.Run($"build \"{Path.Combine(root, "all.slnx")}\" {typed} -m:2 -v:d -nologo -tl:off -p:CloneCopyRequireClones=warning", mount.Scratch, environment);

            Assert.True(code == 0, $"{context}:{Environment.NewLine}{log}");
            // Multithreaded: the SDK's tasks without the attribute go to task hosts; none of CloneCopy's do.
            Assert.Matches("Launching task \"[A-Za-z]+\" from assembly \"[^\"]+\" in an external task host", log);
            foreach (string task in new[] { "Copy", "CloneCopySummary", "CloneCopyStage", "CloneCopySettings" })
            {
                Assert.DoesNotContain($"Launching task \"{task}\"", log);
            }

            int serverPid = Assert.Single(session.Processes(), p => p.NodeMode == 8).Pid;
            server ??= serverPid;
            Assert.Equal(server, serverPid);
            var built = ProjectProcesses(log);
            Assert.Equal(Projects, built.Keys.Order());
            Assert.All(built, b => Assert.True(b.Value == serverPid, $"{context}: {b.Key} built in {b.Value}, the server is {serverPid}"));
            var lines = SummaryLines(log);
            Assert.True(lines.Select(l => l.Project).Order().SequenceEqual(Projects), $"{context}: {string.Join(" | ", lines.Select(l => l.Line))}");
            if (kinds[build] == FilesystemKind.Xfs)
            {
                Assert.All(lines, l => Assert.True(l.Cloned > 0 && l.Copied == 0, $"{context}: {l.Line}"));
                Assert.DoesNotContain("CLC005", log);
                Assert.True(ExtentMap.SharesAllExtents(LibIn(root, "Lib"), LibIn(root, "App2"), out string extents), $"{context}: {extents}");
            }
            else
            {
                Assert.All(lines, l => Assert.True(l.Cloned == 0 && l.Line.Contains("the filesystem cannot clone", StringComparison.Ordinal), $"{context}: {l.Line}"));
                Assert.Equal(Projects, CiGuardWarnings().Matches(log).Select(m => m.Groups["project"].Value).Distinct().Order());
            }

            Assert.DoesNotContain("CLC007", log);
        }

        session.ShutDown();
    }

    [FilesystemFact]
    public void A_build_cancelled_on_the_server_is_followed_by_a_complete_and_correct_one()
    {
        // Ctrl+C (SIGINT to the `dotnet build` client) while the server copies 24 files of 8 MiB on ext4, then the same
        // build again through the same server. A copy that ends before the Ctrl+C arrives would test nothing, and a fast
        // disk copies all 24 in a blink: strace holds each of the server's copy_file_range calls back for 2 s, so the
        // Copy is still at its first files when the cancel reaches it, on any machine.
        using var mount = new ReplaceableMount();
        using var session = new MSBuildServerSession(Path.Combine(mount.Scratch, "nuget-packages"));
        string root = mount.Mount(FilesystemKind.Ext4);
        var repository = new TestRepository(root, _sdk)
            .Write("Directory.Build.props", "<Project><Sdk Name=\"CloneCopy\" /></Project>")
            .Write("Directory.Build.targets", SayProcessTarget)
            .WriteGlobalJson(msbuildSdks: true)
            .Write("App/App.csproj", """
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net10.0</TargetFramework></PropertyGroup>
                  <ItemGroup><None Include="big/**" CopyToOutputDirectory="PreserveNewest" /></ItemGroup>
                </Project>
                """)
            .Write("App/Program.cs", "System.Console.WriteLine(1);");
        string[] names = [.. Enumerable.Range(1, 24).Select(i => $"big{i:00}.bin")];
        for (int i = 0; i < names.Length; i++)
        {
            repository.Content(Path.Combine("App", "big", names[i]), 8 << 20, 100 + i);
        }

        // The server started by a build of its own (-m:1: no worker node), so that strace is on it before this build starts.
        var (started, startLog) = session.Run($"build \"{WriteProbe(mount.Scratch)}\" --no-restore -m:1 -v:n -nologo -tl:off", mount.Scratch);
        Assert.True(started == 0, startLog);
        int server = Assert.Single(session.Processes(), p => p.NodeMode == 8).Pid;

        string project = Path.Combine(root, "App", "App.csproj");
        bool cancelled = false;
        string[] calls;
        int code;
        string log;
        using (var slowed = new AttachedTrace(Path.Combine(mount.Scratch, "cancelled.trace"), [server], "copy_file_range", TimeSpan.FromSeconds(2)))
        {
            (code, log) = session.Run($"build \"{project}\" -m:1 -v:n -nologo -tl:off", mount.Scratch, onLine: (line, client) =>
            {
                if (!cancelled && line.Contains("Copying file from", StringComparison.Ordinal) && line.Contains("big", StringComparison.Ordinal))
                {
                    cancelled = true;
                    ProcessRunner.Run("kill", $"-INT {client.Id}");
                }
            });
            calls = slowed.Stop();
        }

        Assert.True(cancelled, log);
        Assert.True(code != 0, $"the build was not cancelled:{Environment.NewLine}{log}");
        int first = Assert.Single(ProjectProcesses(log)).Value;
        Assert.Equal(server, first);
        string output = Path.Combine(root, "App", "bin", "Debug", "net10.0", "big");
        int copiedBefore = Directory.Exists(output) ? Directory.GetFiles(output).Length : 0;

        // The server's copies were the slowed ones, and the cancel met the Copy half-way: some of the 24 were never begun.
        int bigCopies = calls.Count(c => c.Contains("copy_file_range(", StringComparison.Ordinal) && c.Contains("/big/big", StringComparison.Ordinal));
        Assert.True(bigCopies > 0, $"no copy_file_range of a big file in the server {server}:{Environment.NewLine}{string.Join(Environment.NewLine, calls.Take(20))}");
        Assert.True(copiedBefore < names.Length, $"{copiedBefore} of {names.Length} big files were in the output after the cancel: it did not meet the Copy half-way ({bigCopies} copy_file_range calls seen)");

        // MSBuild 18.9's server ends itself after a cancelled build (seen as well with a project without CloneCopy): the
        // next build then starts a new one, and what the cancelled build left is on disk only. Where a server is still
        // there, the next build waits until it takes builds again (a client that finds it busy builds in its own process).
        bool serverSurvived = session.Processes().Any(p => p.Pid == first);
        if (serverSurvived)
        {
            WaitUntilTheServerTakesBuilds(session, mount.Scratch, first);
        }

        var (again, rebuilt) = session.Run($"build \"{project}\" -v:n -nologo -tl:off", mount.Scratch);

        Assert.True(again == 0, rebuilt);
        int second = Assert.Single(ProjectProcesses(rebuilt)).Value;
        Assert.True(serverSurvived ? second == first : session.Processes().Any(p => p.Pid == second && p.NodeMode == 8), $"rebuilt in {second}; the cancelled build's server {first} {(serverSurvived ? "survived" : "ended")}");
        Assert.Equal(names, Directory.GetFiles(output).Select(Path.GetFileName).Order());
        foreach (string name in names)
        {
            Assert.True(File.ReadAllBytes(Path.Combine(root, "App", "big", name)).AsSpan().SequenceEqual(File.ReadAllBytes(Path.Combine(output, name))), $"{name} differs from its source after the rebuild ({copiedBefore} files were there after the cancelled build)");
        }

        // The summary counts this build's copies only, none of the cancelled build's.
        var line = Assert.Single(SummaryLines(rebuilt));
        Assert.Equal(CopyingLine().Count(rebuilt), line.Cloned + line.Copied);
        Assert.True(line.Copied >= names.Length - copiedBefore, $"{line.Line} ({copiedBefore} big files after the cancelled build)");
        session.ShutDown();
    }

    /// <summary>Builds a one-target project through the session until it is built in <paramref name="server"/>, for at most two minutes.</summary>
    private static void WaitUntilTheServerTakesBuilds(MSBuildServerSession session, string scratch, int server)
    {
        string probe = WriteProbe(scratch);
        var tried = new List<string>();
        var stopwatch = System.Diagnostics.Stopwatch.StartNew();
        while (stopwatch.Elapsed < TimeSpan.FromMinutes(2))
        {
            var (code, log) = session.Run($"build \"{probe}\" --no-restore -v:n -nologo -tl:off", scratch);
            var built = ProjectProcesses(log);
            if (code == 0 && built.TryGetValue("probe", out int pid) && pid == server)
            {
                return;
            }

            tried.Add($"exit {code}, built in {string.Join(", ", built.Values)}");
            System.Threading.Thread.Sleep(1000);
        }

        Assert.Fail($"the server {server} took no build in two minutes after the cancelled one: {string.Join("; ", tried)}");
    }

    /// <summary>A project with nothing to restore or copy whose Build says its process: probe/probe.proj under <paramref name="scratch"/>.</summary>
    private static string WriteProbe(string scratch)
    {
        string probe = Path.Combine(scratch, "probe", "probe.proj");
        Directory.CreateDirectory(Path.GetDirectoryName(probe)!);
        File.WriteAllText(probe, SayProcessTarget.Replace("Name=\"_TestSaysItsProcess\" AfterTargets=\"BeforeBuild\"", "Name=\"Build\"", StringComparison.Ordinal));
        return probe;
    }

    /// <summary>Each project's build says its process: the target runs in the process that builds the project and runs its tasks.</summary>
    private const string SayProcessTarget = """
        <Project>
          <Target Name="_TestSaysItsProcess" AfterTargets="BeforeBuild">
            <PropertyGroup><_TestStat>$([System.IO.File]::ReadAllText('/proc/self/stat'))</_TestStat></PropertyGroup>
            <Message Importance="high" Text="test: $(MSBuildProjectName) built in process $(_TestStat.Substring(0, $(_TestStat.IndexOf(' '))))" />
          </Target>
        </Project>
        """;

    /// <summary>Two apps referencing one library (built in parallel under -m:2), each with a content file; no package of their own.</summary>
    private TestRepository AppsWithLibrary(string root)
    {
        var repository = new TestRepository(root, _sdk)
            .Write("Directory.Build.props", "<Project><Sdk Name=\"CloneCopy\" /></Project>")
            .Write("Directory.Build.targets", SayProcessTarget)
            .WriteGlobalJson(msbuildSdks: true)
            .Library("Lib")
            .Write("all.slnx", "<Solution><Project Path=\"App1/App1.csproj\" /><Project Path=\"App2/App2.csproj\" /><Project Path=\"Lib/Lib.csproj\" /></Solution>");
        foreach (string app in new[] { "App1", "App2" })
        {
            repository.Content($"{app}/assets/logo.bin", 300_000, app.Length + app[^1])
                .Write($"{app}/{app}.csproj", """
                    <Project Sdk="Microsoft.NET.Sdk">
                      <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net10.0</TargetFramework></PropertyGroup>
                      <ItemGroup>
                        <ProjectReference Include="../Lib/Lib.csproj" />
                        <None Include="assets/**" CopyToOutputDirectory="PreserveNewest" />
                      </ItemGroup>
                    </Project>
                    """)
                .Write($"{app}/Program.cs", "System.Console.WriteLine(Lib.Class1.Name);");
        }

        return repository;
    }

    private static string LibIn(string root, string project) => Path.Combine(root, project, "bin", "Debug", "net10.0", "Lib.dll");

    /// <summary>Project name to the process that built it, from the projects' own lines.</summary>
    private static Dictionary<string, int> ProjectProcesses(string log) =>
        ProcessLine().Matches(log).GroupBy(m => m.Groups["project"].Value)
            .ToDictionary(g => g.Key, g => int.Parse(g.Single().Groups["pid"].Value, CultureInfo.InvariantCulture));

    private static List<(string Project, int Cloned, int Copied, string Line)> SummaryLines(string log) =>
        SummaryLine().Matches(log)
            .Select(m => (m.Groups["project"].Value, int.Parse(m.Groups["cloned"].Value, CultureInfo.InvariantCulture), m.Groups["copied"].Success ? int.Parse(m.Groups["copied"].Value, CultureInfo.InvariantCulture) : 0, m.Value))
            .ToList();

    [GeneratedRegex(@"test: (?<project>[A-Za-z0-9]+) built in process (?<pid>\d+)")]
    private static partial Regex ProcessLine();

    [GeneratedRegex(@"CloneCopy: (?<cloned>\d+) files? cloned \([0-9.]+ [KMGT]?B not written[^)]*\)(, (?<copied>\d+) copied \([^)]*\))?(, \d+ linked)?(, \d+ up to date)?(, \d+ failed)? \[(?<project>[A-Za-z0-9]+)\]")]
    private static partial Regex SummaryLine();

    [GeneratedRegex(@"warning CLC005:.*\[[^\]]*/(?<project>[A-Za-z0-9]+)\.csproj")]
    private static partial Regex CiGuardWarnings();

    [GeneratedRegex("Copying file from \"[^\"]+\" to \"[^\"]+\"\\.")]
    private static partial Regex CopyingLine();
}
