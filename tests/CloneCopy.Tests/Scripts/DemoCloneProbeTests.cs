using System;
using System.Diagnostics;
using System.IO;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Scripts;

/// <summary>
/// The README's main command (scripts/demo.sh) asks whether the filesystem it runs on can clone, and builds on a reflink
/// XFS it mounts itself when the answer is no. A probe that says yes on ext4 makes the demo build there and show
/// nothing cloned; only the demo lane would see it. So the probe itself (scripts/lib/clone-probe.sh's can_clone, the
/// function demo.sh calls) is asked here about the suite's own loop filesystems, whose answers are known.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class DemoCloneProbeTests
{
    private readonly LoopFilesystems _filesystems;

    public DemoCloneProbeTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4, false)]
    [InlineData(FilesystemKind.Xfs, true)]
    [InlineData(FilesystemKind.Btrfs, true)]
    public void The_demo_s_probe_says_whether_the_filesystem_clones_and_leaves_nothing_behind(FilesystemKind kind, bool clones)
    {
        string directory = _filesystems.NewDirectory(kind, "demo-probe");

        var (exitCode, output) = CanClone(directory);

        Assert.True(exitCode is 0 or 1, $"can_clone ended with {exitCode}: {output}");
        Assert.True(clones == (exitCode == 0), $"can_clone on {kind} answered {(exitCode == 0 ? "yes" : "no")}; it {(clones ? "clones" : "cannot clone")}. {output}");
        Assert.Empty(Directory.GetFileSystemEntries(directory));
    }

    [Fact]
    public void The_demo_decides_where_to_build_with_that_probe()
    {
        // The wiring alone: the probe's answers are held above.
        string demo = File.ReadAllText(Path.Combine(RepositoryRoot(), "scripts", "demo.sh"));

        Assert.Contains("source scripts/lib/clone-probe.sh", demo, StringComparison.Ordinal);
        Assert.Contains("if can_clone \"$artifacts\"; then", demo, StringComparison.Ordinal);
        Assert.DoesNotContain("--reflink", demo, StringComparison.Ordinal);
    }

    /// <summary>Sources the script's library in a fresh bash, as demo.sh does (errexit and pipefail on), and asks.</summary>
    private static (int ExitCode, string Output) CanClone(string directory)
    {
        var start = new ProcessStartInfo("bash")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = RepositoryRoot(),
        };
        foreach (string argument in new[] { "-c", "set -euo pipefail; source scripts/lib/clone-probe.sh; can_clone \"$1\"", "can_clone", directory })
        {
            start.ArgumentList.Add(argument);
        }

        return ProcessRunner.Run(start, timeoutSeconds: 60);
    }

    private static string RepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "CloneCopy.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("Cannot find the repository root (CloneCopy.slnx) above " + AppContext.BaseDirectory);
    }
}
