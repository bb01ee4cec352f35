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

    public void Dispose()
    {
        foreach (string file in Directory.GetFiles(_directory))
        {
            File.SetAttributes(file, FileAttributes.Normal);
        }

        Directory.Delete(_directory, recursive: true);
    }

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

    [Fact]
    public void A_wrong_clone_of_a_read_only_hidden_source_is_read_back_before_it_carries_their_attributes_removed_and_copied()
    {
        // Read back after the metadata step, the clone already carried READONLY and HIDDEN and the source's time, and
        // the rewrite met CopyFile's "ERROR_ACCESS_DENIED if the destination file already exists and has the
        // FILE_ATTRIBUTE_HIDDEN or FILE_ATTRIBUTE_READONLY attribute set": MSB3021, and a wrong file left behind.
        string source = TestFiles.Write(Named("ro.dll"), Large, seed: 5);
        File.SetAttributes(source, FileAttributes.ReadOnly | FileAttributes.Hidden);
        ClonerTransfer transfer = NewTransfer();
        FileAttributes atReadBack = default;
        DateTime timeAtReadBack = default;
        bool sparseAtReadBack = true;
        transfer.Verifier.AfterCloneForTests = (handle, path) =>
        {
            sparseAtReadBack = _kernel.IsSparse(path);
            atReadBack = File.GetAttributes(path);
            timeAtReadBack = File.GetLastWriteTimeUtc(path);
            Flip(handle, path);
        };

        TransferResult result = transfer.Transfer(source, Named("ro.copy"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (result.Method, result.Reason));
        Assert.False(atReadBack.HasFlag(FileAttributes.ReadOnly), $"the clone was read back with {atReadBack}");
        Assert.NotEqual(File.GetLastWriteTimeUtc(source), timeAtReadBack);
        Assert.False(sparseAtReadBack); // after the sparse clear, which fills a clone that shared nothing with zeros
        Assert.Contains(_kernel.Calls, c => c.StartsWith($"SetDispositionEx {Named("ro.copy")} ", StringComparison.Ordinal)); // removed through its own handle
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("ro.copy")));
        Assert.True(File.GetAttributes(Named("ro.copy")).HasFlag(FileAttributes.ReadOnly));
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(Named("ro.copy")));
    }

    [Fact]
    public void A_read_back_that_throws_is_an_ordinary_failed_clone_removed_and_copied()
    {
        string source = TestFiles.Write(Named("t.dll"), Large, seed: 6);
        File.SetAttributes(source, FileAttributes.ReadOnly);
        ClonerTransfer transfer = NewTransfer();
        transfer.Verifier.AfterCloneForTests = (_, _) => throw new IOException("The specified network name is no longer available.");

        TransferResult result = transfer.Transfer(source, Named("t.copy"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.RefusedForThisFile), (result.Method, result.Reason));
        Assert.Contains(_kernel.Calls, c => c.StartsWith($"SetDispositionEx {Named("t.copy")} ", StringComparison.Ordinal));
        Assert.Empty(_kernel.CallsTo("SetBasicInformation")); // never given the source's metadata
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("t.copy")));
        Assert.False(_diagnostics.TryTake(out _));
    }

    [Fact]
    public void A_clone_longer_than_its_source_is_caught_and_the_copy_has_the_source_s_length()
    {
        ClonerTransfer transfer = NewTransfer();
        transfer.Verifier.AfterCloneForTests = (handle, _) => RandomAccess.SetLength(handle, RandomAccess.GetLength(handle) + 100);

        TransferResult result = Transfer(transfer, 1);

        Assert.Equal(NotClonedReason.CloneReadBackDiffered, result.Reason);
        Assert.Equal(File.ReadAllBytes(Named("1.dll")), File.ReadAllBytes(Named("1.copy")));
    }

    [Fact]
    public void A_source_another_process_would_rewrite_after_the_clone_gives_no_false_CLC008()
    {
        // The read-back runs on the clone's own handles, and the source's denies writers until then: another process
        // (a later build step) cannot rewrite it between the clone and the read-back. By path, it could, and the
        // read-back took its new bytes for a wrong clone.
        string source = TestFiles.Write(Named("s.dll"), Large, seed: 7);
        ClonerTransfer transfer = NewTransfer();
        bool rewritten = false;
        transfer.Verifier.AfterCloneForTests = (_, _) =>
        {
            try
            {
                SafeFileHandle writer = _kernel.OpenForeign(source, Win32.GenericWrite, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete);
                _kernel.CloseHandle(writer);
                TestFiles.Write(source, Large, seed: 8);
                rewritten = true;
            }
            catch (IOException)
            {
                // a sharing violation: the source is held denying writers
            }
        };

        TransferResult result = transfer.Transfer(source, Named("s.copy"), CancellationToken.None);

        Assert.False(rewritten);
        Assert.Equal(TransferMethod.Cloned, result.Method);
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

    /// <summary>A file of an earlier build (older than the fresh-source window, whose clones are read back whole besides), transferred.</summary>
    private TransferResult Transfer(ClonerTransfer transfer, int i)
    {
        string source = TestFiles.Write(Named($"{i}.dll"), Large, seed: i);
        _kernel.Age(source, TimeSpan.FromHours(1));
        return transfer.Transfer(source, Named($"{i}.copy"), CancellationToken.None);
    }

    private ClonerTransfer NewTransfer() => new(() => new WindowsBlockCloner(_kernel), _diagnostics);

    private string Named(string name) => Path.Combine(_directory, name);
}
