using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The simulator's integrity and sparse rules as the documents state them, and what the
/// cloner does under them: a volume that refuses to give a new file integrity streams (client Windows, Dev Drive), a
/// sparse source with holes, integrity settings that differ only in algorithm or flags, and the CopyFile question asked
/// of a sparse file whose first cluster is a hole.
/// </summary>
public abstract class IntegrityAndSparseCases : IDisposable
{
    private const int Large = 70_000;
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-integrity").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new() { OsBuild = 20348 };
    private readonly SimulatedVolume _volume;

    protected IntegrityAndSparseCases() => _volume = _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{45454545-0000-0000-0000-000000000045}\");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void Where_the_volume_refuses_to_give_integrity_streams_the_file_is_copied_and_later_ones_do_not_try()
    {
        // FSCTL_SET_INTEGRITY_INFORMATION: "Minimum supported client: None supported"; reflink-copy met access denied on
        // a Dev Drive (its #27) and ignores it. Block Cloning: integrity streams enabled in both files or disabled in
        // both. A source with them into a folder without cannot be cloned here then: CopyFile, whose copy has them
        // (File Attribute Constants), writes it; no build fails, and later such files do not make a destination first.
        _volume.RefusesSetIntegrity = true;
        var checksums = new IntegrityInformation(Win32.ChecksumTypeCrc64, 0);
        string a = TestFiles.Write(Named("a.dll"), 20_000, seed: 1);
        string b = TestFiles.Write(Named("b.dll"), 20_000, seed: 2);
        _kernel.SetIntegrity(a, checksums);
        _kernel.SetIntegrity(b, checksums);
        ClonerTransfer transfer = NewTransfer();

        TransferResult first = transfer.Transfer(a, Named("a.copy"), CancellationToken.None);
        TransferResult second = transfer.Transfer(b, Named("b.copy"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.IntegrityStreamsCannotBeGiven), (first.Method, first.Reason));
        Assert.Equal((TransferMethod.Copied, NotClonedReason.IntegrityStreamsCannotBeGiven), (second.Method, second.Reason));
        Assert.Single(_kernel.CallsTo("SetIntegrityInformation"));
        Assert.DoesNotContain($"CreateFile {Named("b.copy")} CreateNew", _kernel.Calls);
        Assert.Empty(_kernel.Violations);
        Assert.Equal(File.ReadAllBytes(a), File.ReadAllBytes(Named("a.copy")));
    }

    [Fact]
    public void A_source_without_integrity_streams_still_clones_on_a_volume_that_refuses_to_give_them()
    {
        _volume.RefusesSetIntegrity = true;
        string a = TestFiles.Write(Named("a.dll"), 20_000);

        TransferResult result = NewTransfer().Transfer(a, Named("a.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Empty(_kernel.CallsTo("SetIntegrityInformation"));
    }

    [Fact]
    public void A_sparse_source_with_holes_is_cloned_holes_and_all()
    {
        // MS-FSCC 2.3.8 refuses a source range beyond the source's allocation; taken as MS-FSA's AllocationSize, which
        // covers the whole file rounded up to its cluster (not the clusters in use), a hole inside the file is no reason
        // to refuse (an inference, ASSUMED A20: MS-FSA's clone section, 2.1.5.10.4, does not say it). The destination is sparse while it is cloned (Block Cloning).
        string source = TestFiles.Write(Named("sparse.bin"), Large);
        _kernel.MarkSparse(source, allocatedBytes: 8192);

        TransferResult result = NewTransfer().Transfer(source, Named("copy.bin"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("copy.bin")));
    }

    [Theory]
    [InlineData(Win32.ChecksumTypeCrc32, 0u)]
    [InlineData(Win32.ChecksumTypeCrc64, Win32.IntegrityFlagChecksumEnforcementOff)]
    public void Integrity_streams_enabled_in_both_files_clone_whatever_their_algorithm_and_flags(ushort folderAlgorithm, uint folderFlags)
    {
        // Block Cloning asks only that integrity streams be enabled in both files or disabled in both.
        Directory.CreateDirectory(Named("out"));
        _kernel.SetFolderIntegrity(Named("out"), new IntegrityInformation(folderAlgorithm, folderFlags));
        string source = TestFiles.Write(Named("a.dll"), 20_000);
        _kernel.SetIntegrity(source, new IntegrityInformation(Win32.ChecksumTypeCrc64, 0));

        TransferResult result = NewTransfer().Transfer(source, Path.Combine(Named("out"), "a.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path.Combine(Named("out"), "a.dll")));
    }

    [Fact]
    public void A_sparse_source_whose_first_cluster_is_a_hole_does_not_decide_that_CopyFile_copies_on_the_volume()
    {
        // Its first extent's LCN is -1 (MS-FSCC 2.3.33: unallocated), which says nothing about where CopyFile's copy
        // lies. A sparse file never asks (its first cluster may be a hole); the next plain file does.
        _kernel.OsBuild = 22631;
        _volume.CopyFileClones = true;
        string sparse = TestFiles.Write(Named("sparse.bin"), Large, seed: 1);
        _kernel.MarkSparse(sparse, allocatedBytes: 8192, allocatedFrom: 32768);
        ClonerTransfer transfer = NewTransfer();

        TransferResult first = transfer.Transfer(sparse, Named("sparse.copy"), CancellationToken.None);
        TransferResult second = transfer.Transfer(TestFiles.Write(Named("b.dll"), Large, seed: 2), Named("b.copy"), CancellationToken.None);
        TransferResult third = transfer.Transfer(TestFiles.Write(Named("c.dll"), Large, seed: 3), Named("c.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, first.Method);
        Assert.Equal(TransferMethod.Cloned, second.Method); // CopyFile's own clone
        Assert.Equal((TransferMethod.Copied, NotClonedReason.CopyFileClonesHere), (third.Method, third.Reason));
        Assert.Equal(new[] { $"CopyFile {Named("b.copy")}" }, _kernel.CallsTo("CopyFile"));
        Assert.Equal(File.ReadAllBytes(sparse), File.ReadAllBytes(Named("sparse.copy")));
    }

    private ClonerTransfer NewTransfer() => new(() => new WindowsBlockCloner(_kernel), new EngineDiagnostics());

    private string Named(string name) => Path.Combine(_directory, name);
}
