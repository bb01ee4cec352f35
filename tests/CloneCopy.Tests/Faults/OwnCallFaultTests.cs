using System;
using System.Diagnostics;
using System.IO;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Faults;

/// <summary>
/// A lasting error from a call CloneCopy makes and MSBuild's Copy (.NET's File.Copy) does not: the pair goes the way
/// MSBuild's Copy goes and passes where it passes. The fault is the kernel's own answer, injected by strace into
/// this test program copying one file in a process of its own (the fault lane's driver, <see cref="FaultLaneDriver"/>).
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class OwnCallFaultTests
{
    private readonly LoopFilesystems _filesystems;

    public OwnCallFaultTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    /// <summary>
    /// statx of the destination just opened (<c>statx(fd, "", AT_EMPTY_PATH)</c>, the second statx naming it: the first
    /// is the rules' look at the path, which MSBuild's Copy takes too): File.Copy opens, locks and truncates a
    /// destination without ever looking at it, so this error never reaches MSBuild's Copy.
    /// </summary>
    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs, "EIO")]
    [InlineData(FilesystemKind.Xfs, "EACCES")]
    [InlineData(FilesystemKind.Xfs, "ENOENT")]
    [InlineData(FilesystemKind.Ext4, "EIO")]
    public void A_lasting_error_from_statx_of_the_opened_destination_passes_as_MSBuilds_Copy_passes(FilesystemKind kind, string errno)
    {
        var (source, folder) = Files(kind);

        string output = CopyUnderStrace(source, folder, "statx", $"error={errno}:when=2+");

        Assert.Contains("result passed", output, StringComparison.Ordinal);
        Assert.DoesNotContain("warning MSB3026", output, StringComparison.Ordinal);
        Assert.Equal(FileMetadata.Read(source).ContentHash, FileMetadata.Read(Path.Combine(folder, "large.bin")).ContentHash);
    }

    private (string Source, string Folder) Files(FilesystemKind kind)
    {
        string directory = _filesystems.NewDirectory(kind);
        return (TestFiles.Write(Path.Combine(directory, "src", "large.bin"), 1024 * 1024, seed: 7), Path.Combine(directory, "out"));
    }

    /// <summary>CloneCopy's Copy of <paramref name="source"/> into <paramref name="folder"/> with Retries=2, the injection made on the destination.</summary>
    private static string CopyUnderStrace(string source, string folder, string call, string injection)
    {
        Assert.True(SystemCallTrace.Available || !LoopFilesystems.IsCi, "strace is needed (scripts/setup.sh installs it)");
        Assert.SkipUnless(SystemCallTrace.Available, "strace is not installed");
        var start = new ProcessStartInfo("strace") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in new[]
        {
            "-f", "-qq", "--seccomp-bpf", "-o", "/dev/null", "-e", $"trace={call}", "-P", Path.Combine(folder, Path.GetFileName(source)),
            "-e", $"inject={call}:{injection}", Environment.ProcessPath!, typeof(OwnCallFaultTests).Assembly.Location,
            "--fault-copy", "clonecopy", "2", folder, source,
        })
        {
            start.ArgumentList.Add(argument);
        }

        return ProcessRunner.Run(start, timeoutSeconds: 120).Output;
    }
}
