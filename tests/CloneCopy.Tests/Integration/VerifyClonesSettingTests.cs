using System;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// -p:CloneCopyVerifyClones=true on its own (no CI guard, no clones in place of links) in a real build on reflink XFS:
/// every clone the build makes is read back, which only the reads themselves show. strace records the build's pread64
/// calls with the paths of their descriptors; the App's output folder is read by nothing else during a build.
/// Without the setting one clone per pair of filesystems is read back per build, so more than one file read back
/// there is the setting having reached the Copy tasks.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed partial class VerifyClonesSettingTests
{
    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;

    public VerifyClonesSettingTests(LoopFilesystems filesystems, PackedSdk sdk)
    {
        _filesystems = filesystems;
        _sdk = sdk;
    }

    [FilesystemFact]
    public void The_setting_alone_reaches_the_Copy_tasks_and_every_clone_of_the_build_is_read_back()
    {
        Assert.True(SystemCallTrace.Available || !LoopFilesystems.IsCi, "strace is needed (scripts/setup.sh installs it)");
        Assert.SkipUnless(SystemCallTrace.Available, "strace is not installed");
        TestRepository repository = TestRepository.AppWithLibrary(_filesystems.NewDirectory(FilesystemKind.Xfs, "verify"), _sdk);
        string trace = Path.Combine(repository.Root, "preads.trace");

        var (code, log) = Dotnet.Run(
            string.Empty, repository.Root, repository.NuGetPackages,
            program: "strace",
            programArguments: $"-f -qq --seccomp-bpf -y -e trace=pread64 -o \"{trace}\" dotnet build App/App.csproj -v:d -nologo -m:1 -p:CloneCopyVerifyClones=true");

        Assert.True(code == 0, log);
        string output = Path.Combine(repository.Root, "App", "bin", "Debug", "net10.0") + "/";
        string[] cloned = ["App.dll", "Lib.dll", "Newtonsoft.Json.dll", "settings.json", "assets/logo.bin"];
        var readBack = ReadPath().Matches(File.ReadAllText(trace)).Select(m => m.Groups[1].Value)
            .Where(p => p.StartsWith(output, StringComparison.Ordinal)).Select(p => p[output.Length..]).ToHashSet(StringComparer.Ordinal);
        Assert.True(cloned.All(readBack.Contains), $"read back in the App's output: {string.Join(", ", readBack.Order(StringComparer.Ordinal))}; expected at least {string.Join(", ", cloned)}");
    }

    [GeneratedRegex(@"pread64\(\d+<([^>]+)>")]
    private static partial Regex ReadPath();
}
