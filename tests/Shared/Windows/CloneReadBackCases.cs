using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Win32.SafeHandles;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The read-back of clones in the Windows chain: the first clone per volume per build, CloneCopy's own
/// block clone and CopyFile's clone alike, is read back and compared with its source before the volume is trusted; a
/// clone made wrong on purpose through the verifier's seam is caught, warned once, written again by File.Copy, and the
/// volume clones no more in that build.
/// </summary>
public abstract class CloneReadBackCases : IDisposable
{
    private const int Large = 70_000;
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-readback").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new() { OsBuild = 20348 };
    private readonly SimulatedVolume _volume;
    private readonly EngineDiagnostics _diagnostics = new();

    protected CloneReadBackCases() => _volume = _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{88888888-0000-0000-0000-000000000088}\");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_block_clone_made_wrong_is_caught_rewritten_warned_once_and_the_volume_clones_no_more()
    {
        ClonerTransfer transfer = NewTransfer();
        transfer.Verifier.AfterCloneForTests = Flip;

        TransferResult[] results = Enumerable.Range(1, 3).Select(i => Transfer(transfer, i)).ToArray();

        Assert.All(results, r => Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (r.Method, r.Reason)));
        Assert.Single(_kernel.CallsTo("DuplicateExtents"));
        Assert.All(Enumerable.Range(1, 3), i => Assert.Equal(File.ReadAllBytes(Named($"{i}.dll")), File.ReadAllBytes(Named($"{i}.copy"))));
        Assert.True(_diagnostics.TryTake(out EngineDiagnostic said));
        Assert.Equal((EngineDiagnosticKind.CloneReadBackDiffered, Named("1.copy")), (said.Kind, said.Detail));
        Assert.False(_diagnostics.TryTake(out _));
    }

    [Fact]
    public void CopyFile_s_own_clone_is_read_back_before_the_volume_is_left_to_CopyFile()
    {
        _kernel.OsBuild = 22631;
        _volume.CopyFileClones = true;
        ClonerTransfer transfer = NewTransfer();
        transfer.Verifier.AfterCloneForTests = Flip;

        TransferResult first = Transfer(transfer, 1);
        TransferResult second = Transfer(transfer, 2);

        Assert.Equal(new[] { $"CopyFile {Named("1.copy")}" }, _kernel.CallsTo("CopyFile"));
        Assert.Equal(NotClonedReason.CloneReadBackDiffered, first.Reason);
        Assert.Equal(NotClonedReason.CloneReadBackDiffered, second.Reason); // not "Windows' CopyFile clones here itself"
        Assert.Equal(File.ReadAllBytes(Named("1.dll")), File.ReadAllBytes(Named("1.copy")));
    }

    [Fact]
    public void A_right_clone_is_read_once_per_volume_per_build_and_every_time_with_CloneCopyVerifyClones()
    {
        ClonerTransfer transfer = NewTransfer();
        transfer.UseVerdictsOf(new BuildVerdicts());

        Assert.All(Enumerable.Range(1, 3), i => Assert.Equal(TransferMethod.Cloned, Transfer(transfer, i).Method));
        Assert.Equal(1, transfer.Verifier.ReadBacks);

        transfer.UseVerdictsOf(new BuildVerdicts { VerifyClones = true });
        Assert.All(Enumerable.Range(4, 3), i => Assert.Equal(TransferMethod.Cloned, Transfer(transfer, i).Method));
        Assert.Equal(4, transfer.Verifier.ReadBacks);
        Assert.False(_diagnostics.TryTake(out _));
    }

    /// <summary>Flips the last byte of the fresh clone, as a filesystem that cloned wrongly would leave it.</summary>
    private static void Flip(SafeFileHandle destination, string path)
    {
        long at = RandomAccess.GetLength(destination) - 1;
        var one = new byte[1];
        RandomAccess.Read(destination, one, at);
        one[0] ^= 0xFF;
        RandomAccess.Write(destination, one, at);
    }

    private TransferResult Transfer(ClonerTransfer transfer, int i) =>
        transfer.Transfer(TestFiles.Write(Named($"{i}.dll"), Large, seed: i), Named($"{i}.copy"), CancellationToken.None);

    private ClonerTransfer NewTransfer() => new(() => new WindowsBlockCloner(_kernel), _diagnostics);

    private string Named(string name) => Path.Combine(_directory, name);
}
