using System;
using System.Diagnostics;
using System.IO;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>
/// A small reflink XFS, loop-mounted for one test and removed after it: extent maps and shared blocks are
/// real there (the temporary folder may be tmpfs, which has no extent maps). Needs Linux, root and mkfs.xfs;
/// without them the test skips, but under CI=true it fails: CI must not skip what it could not check.
/// </summary>
public sealed class ReflinkFilesystem : IDisposable
{
    private readonly string _scratch;

    private ReflinkFilesystem(string scratch)
    {
        _scratch = scratch;
        Root = Path.Combine(scratch, "mnt");
    }

    public string Root { get; }

    public static ReflinkFilesystem Mount()
    {
        string? missing = !OperatingSystem.IsLinux() ? "extent maps are read on Linux only"
            : Run("id", "-u").Output.Trim() != "0" ? "loop-mounting a reflink XFS needs root"
            : Run("sh", "-c \"command -v mkfs.xfs\"").ExitCode != 0 ? "mkfs.xfs (xfsprogs) is not installed"
            : null;
        if (missing is not null)
        {
            Assert.False(string.Equals(Environment.GetEnvironmentVariable("CI"), "true", StringComparison.OrdinalIgnoreCase), $"under CI=true: {missing}");
            Assert.Skip(missing);
        }

        string scratch = Directory.CreateTempSubdirectory("clonecopy-compare-xfs").FullName;
        var filesystem = new ReflinkFilesystem(scratch);
        string image = Path.Combine(scratch, "xfs.img");
        Directory.CreateDirectory(filesystem.Root);
        Checked("truncate", $"-s 300M \"{image}\"");
        Checked("mkfs.xfs", $"-q -f -m reflink=1 \"{image}\"");
        Checked("mount", $"-o loop \"{image}\" \"{filesystem.Root}\"");
        return filesystem;
    }

    public void Dispose()
    {
        if (Run("umount", $"\"{Root}\"").ExitCode != 0)
        {
            Run("umount", $"-l \"{Root}\"");
        }

        Directory.Delete(_scratch, recursive: true);
    }

    public static void Checked(string file, string arguments)
    {
        var (exitCode, output) = Run(file, arguments);
        Assert.True(exitCode == 0, $"{file} {arguments}: {output}");
    }

    private static (int ExitCode, string Output) Run(string file, string arguments)
    {
        var start = new ProcessStartInfo(file, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(start)!;
        string output = process.StandardOutput.ReadToEnd() + process.StandardError.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, output);
    }
}
