using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Linux;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Engine;

/// <summary>
/// The read-back of clones on Linux, on a real reflink XFS: the first FICLONE per pair of filesystems per
/// build is read back and compared with its source; with CloneCopyVerifyClones every one. No filesystem clones wrongly on
/// request, so the verifier's seam writes into the fresh clone before it is read back.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class CloneReadBackTests
{
    private readonly LoopFilesystems _filesystems;

    public CloneReadBackTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemFact]
    public void A_clone_made_wrong_is_caught_rewritten_by_a_plain_copy_warned_once_and_the_filesystem_clones_no_more_this_build()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        var diagnostics = new EngineDiagnostics();
        var verifier = new CloneVerifier<VolumePair>(diagnostics) { AfterCloneForTests = Corrupt };
        var transfer = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>(), verifier);
        transfer.UseVerdictsOf(new BuildVerdicts());
        string[] sources = Enumerable.Range(1, 3).Select(i => TestFiles.Write(Path.Combine(directory, $"{i}.bin"), 3 << 20, seed: i)).ToArray();

        TransferResult[] results = sources.Select(s => transfer.Transfer(s, s + ".copy", CancellationToken.None)).ToArray();

        Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (results[0].Method, results[0].Reason));
        Assert.All(results.Skip(1), r => Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (r.Method, r.Reason)));
        Assert.All(sources, s => Assert.Equal(File.ReadAllBytes(s), File.ReadAllBytes(s + ".copy")));
        Assert.False(ExtentMap.SharesAllExtents(sources[0], sources[0] + ".copy", out _));
        Assert.True(diagnostics.TryTake(out EngineDiagnostic said));
        Assert.Equal(EngineDiagnosticKind.CloneReadBackDiffered, said.Kind);
        Assert.Equal(sources[0] + ".copy", said.Detail);
        // Named by its device's major:minor, as mountinfo and stat(1) show it.
        Assert.Equal($"the filesystem of device {ProcessRunner.RunChecked("stat", $"-c %Hd:%Ld {directory}").Trim()}", said.Subject);
        Assert.False(diagnostics.TryTake(out _)); // said once
        Assert.Equal(1, verifier.ReadBacks);
    }

    [FilesystemFact]
    public void Once_one_clone_read_back_right_later_clones_are_not_read_unless_every_clone_is_to_be_verified()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        var verifier = new CloneVerifier<VolumePair>(new EngineDiagnostics());
        var transfer = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>(), verifier);
        transfer.UseVerdictsOf(new BuildVerdicts());
        for (int i = 1; i <= 3; i++)
        {
            string source = TestFiles.Write(Path.Combine(directory, $"{i}.bin"), 100_000, seed: i);
            Assert.Equal(TransferMethod.Cloned, transfer.Transfer(source, source + ".copy", CancellationToken.None).Method);
        }

        Assert.Equal(1, verifier.ReadBacks);

        transfer.UseVerdictsOf(new BuildVerdicts { VerifyClones = true });
        for (int i = 4; i <= 6; i++)
        {
            string source = TestFiles.Write(Path.Combine(directory, $"{i}.bin"), 100_000, seed: i);
            Assert.Equal(TransferMethod.Cloned, transfer.Transfer(source, source + ".copy", CancellationToken.None).Method);
        }

        Assert.Equal(4, verifier.ReadBacks);
    }

    /// <summary>
    /// CLC008 as a user reads it in the build log: the filesystem named where the text says "a clone on", and the file
    /// that was written again where it says so (the engine's diagnostic carries both; the words put them in place).
    /// </summary>
    [FilesystemFact]
    public void CLC008_names_the_filesystem_as_the_filesystem_and_the_file_as_the_file()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        var diagnostics = new EngineDiagnostics();
        var verifier = new CloneVerifier<VolumePair>(diagnostics) { AfterCloneForTests = Corrupt };
        string source = TestFiles.Write(Path.Combine(directory, "lib.dll"), 200_000, seed: 4);
        string destination = Path.Combine(directory, "out", "lib.dll");
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new Microsoft.Build.Utilities.TaskItem(source)],
            DestinationFiles = [new Microsoft.Build.Utilities.TaskItem(destination)],
            Transfer = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>(), verifier),
            Diagnostics = diagnostics,
        };

        Assert.True(task.Execute(), engine.Describe());

        var warning = Assert.Single(engine.Warnings, w => w.Code == "CLC008");
        string device = ProcessRunner.RunChecked("stat", $"-c %Hd:%Ld {directory}").Trim();
        Assert.Equal(
            $"CloneCopy: a clone on the filesystem of device {device} read back different from its source, so '{destination}' was written again by a plain copy and nothing more is cloned on that volume in this build. Please report this, with the volume's filesystem and the Windows or kernel version.",
            warning.Message);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
    }

    /// <summary>
    /// A reused node: each build reads its own first clone back (a filesystem may have been remounted between builds),
    /// with CloneCopyVerifyClones off in both, so nothing else reads back.
    /// </summary>
    [FilesystemFact]
    public void The_next_build_on_a_reused_node_reads_its_first_clone_back_again()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        var verifier = new CloneVerifier<VolumePair>(new EngineDiagnostics());
        var transfer = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>(), verifier);
        for (int build = 1; build <= 2; build++)
        {
            transfer.UseVerdictsOf(new BuildVerdicts());
            for (int i = 1; i <= 2; i++)
            {
                string source = TestFiles.Write(Path.Combine(directory, $"{build}-{i}.bin"), 100_000, seed: i);
                Assert.Equal(TransferMethod.Cloned, transfer.Transfer(source, source + ".copy", CancellationToken.None).Method);
            }

            Assert.Equal(build, verifier.ReadBacks);
        }
    }

    [FilesystemFact]
    public void With_every_clone_verified_a_difference_in_the_middle_of_a_large_file_is_caught()
    {
        // The once-per-volume check reads the first and last MiB only; CloneCopyVerifyClones reads every byte.
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        var verifier = new CloneVerifier<VolumePair>(new EngineDiagnostics()) { AfterCloneForTests = (handle, _) => Poke(handle, 2 << 20) };
        var transfer = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>(), verifier);
        transfer.UseVerdictsOf(new BuildVerdicts { VerifyClones = true });
        string source = TestFiles.Write(Path.Combine(directory, "big.bin"), 5 << 20, seed: 9);

        TransferResult result = transfer.Transfer(source, source + ".copy", CancellationToken.None);

        Assert.Equal(NotClonedReason.CloneReadBackDiffered, result.Reason);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(source + ".copy"));
    }

    private static void Corrupt(Microsoft.Win32.SafeHandles.SafeFileHandle destination, string path) => Poke(destination, RandomAccess.GetLength(destination) - 1);

    /// <summary>Flips one byte of the clone, as a filesystem that cloned wrongly would leave it.</summary>
    internal static void Poke(Microsoft.Win32.SafeHandles.SafeFileHandle destination, long offset)
    {
        var one = new byte[1];
        RandomAccess.Read(destination, one, offset);
        one[0] ^= 0xFF;
        RandomAccess.Write(destination, one, offset);
    }
}
