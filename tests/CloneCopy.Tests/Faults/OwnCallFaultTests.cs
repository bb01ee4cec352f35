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

    /// <summary>
    /// The destination looked at once by path (MSBuild's Copy with lstat, CloneCopy with statx) and once through its
    /// descriptor (CloneCopy alone), each failing with EIO the first time: MSBuild's Copy takes the destination for
    /// absent and copies; so must CloneCopy, whose pair then goes to File.Copy, with no look of its own after the copy.
    /// A first file makes the folder known, so the second is created with O_EXCL and looked at through its descriptor.
    /// </summary>
    [FilesystemFact]
    public void A_failing_look_at_the_destination_by_path_and_by_descriptor_passes_as_MSBuilds_Copy_passes()
    {
        var (source, folder) = Files(FilesystemKind.Xfs);
        string first = TestFiles.Write(Path.Combine(Path.GetDirectoryName(source)!, "first.bin"), 1, seed: 8);

        string output = CopyUnderStrace(source, folder, "statx,lstat,newfstatat", "error=EIO:when=1", retries: 0, first);

        Assert.Contains("result passed", output, StringComparison.Ordinal);
        Assert.Equal(FileMetadata.Read(source).ContentHash, FileMetadata.Read(Path.Combine(folder, "large.bin")).ContentHash);
    }

    private (string Source, string Folder) Files(FilesystemKind kind)
    {
        string directory = _filesystems.NewDirectory(kind);
        return (TestFiles.Write(Path.Combine(directory, "src", "large.bin"), 1024 * 1024, seed: 7), Path.Combine(directory, "out"));
    }

    /// <summary>CloneCopy's Copy of <paramref name="source"/> (after <paramref name="before"/>, if given) into <paramref name="folder"/>, the injection made on the source's destination.</summary>
    private static string CopyUnderStrace(string source, string folder, string call, string injection, int retries = 2, string? before = null)
    {
        Assert.True(SystemCallTrace.Available || !LoopFilesystems.IsCi, "strace is needed (scripts/setup.sh installs it)");
        Assert.SkipUnless(SystemCallTrace.Available, "strace is not installed");
        var start = new ProcessStartInfo("strace") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in new[]
        {
            "-f", "-qq", "--seccomp-bpf", "-o", "/dev/null", "-e", $"trace={call}", "-P", Path.Combine(folder, Path.GetFileName(source)),
            "-e", $"inject={call}:{injection}", Environment.ProcessPath!, typeof(OwnCallFaultTests).Assembly.Location,
            "--fault-copy", "clonecopy", retries.ToString(System.Globalization.CultureInfo.InvariantCulture), folder,
        })
        {
            start.ArgumentList.Add(argument);
        }

        if (before is not null)
        {
            start.ArgumentList.Add(before);
        }

        start.ArgumentList.Add(source);

        return ProcessRunner.Run(start, timeoutSeconds: 120).Output;
    }
}
