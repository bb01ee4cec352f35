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
/// ERROR_NOT_SUPPORTED and ERROR_INVALID_PARAMETER from the clone FSCTL are about one file by the documents (MS-FSCC
/// 2.3.8), but a ReFS version or a filter driver that refuses every clone with them would cost every file a failed
/// clone and a copy for the whole build. After <see cref="WindowsBlockCloner.RefusalsBeforeGivingUp"/> such refusals in
/// a row on one volume, with no clone between, the volume clones no more in that build, and the reason says so.
/// </summary>
public abstract class RepeatedRefusalCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-refusals").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new() { OsBuild = 20348 };

    protected RepeatedRefusalCases() => _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{66666666-0000-0000-0000-000000000066}\");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Theory]
    [InlineData(Win32.ErrorNotSupported)]
    [InlineData(Win32.ErrorInvalidParameter)]
    public void After_three_refusals_in_a_row_the_volume_is_not_tried_again_in_this_build(int error)
    {
        _kernel.Fault = (call, _) => call == "DuplicateExtents" ? error : 0;
        ClonerTransfer transfer = NewTransfer();

        TransferResult[] results = Enumerable.Range(1, 6).Select(i => Transfer(transfer, i)).ToArray();

        Assert.Equal(WindowsBlockCloner.RefusalsBeforeGivingUp, _kernel.CallsTo("DuplicateExtents").Count());
        Assert.All(results, r => Assert.Equal(TransferMethod.Copied, r.Method));
        Assert.Equal(
            new[] { NotClonedReason.RefusedForThisFile, NotClonedReason.RefusedForThisFile, NotClonedReason.VolumeRefusesClones, NotClonedReason.VolumeRefusesClones, NotClonedReason.VolumeRefusesClones, NotClonedReason.VolumeRefusesClones },
            results.Select(r => r.Reason));
        Assert.DoesNotContain($"CreateFile {Named("4.copy")} CreateNew", _kernel.Calls);
        Assert.All(Enumerable.Range(1, 6), i => Assert.Equal(File.ReadAllBytes(Named($"{i}.dll")), File.ReadAllBytes(Named($"{i}.copy"))));
        Assert.Contains($"refused {WindowsBlockCloner.RefusalsBeforeGivingUp} clones in a row", CloneCopy.OutcomeText.Reason(NotClonedReason.VolumeRefusesClones), StringComparison.Ordinal);
    }

    [Fact]
    public void A_clone_between_refusals_starts_the_count_again()
    {
        int duplicates = 0;
        _kernel.Fault = (call, _) => call == "DuplicateExtents" && ++duplicates % 3 != 0 ? Win32.ErrorNotSupported : 0; // refused, refused, cloned...
        ClonerTransfer transfer = NewTransfer();

        TransferResult[] results = Enumerable.Range(1, 9).Select(i => Transfer(transfer, i)).ToArray();

        Assert.Equal(9, duplicates);
        Assert.Equal(3, results.Count(r => r.Method == TransferMethod.Cloned));
        Assert.DoesNotContain(results, r => r.Reason == NotClonedReason.VolumeRefusesClones);
    }

    [Fact]
    public void Refusals_of_other_kinds_do_not_count()
    {
        // Access denied, a sharing violation: about this file or this moment, never a volume that refuses clones.
        _kernel.Fault = (call, _) => call == "DuplicateExtents" ? Win32.ErrorAccessDenied : 0;
        ClonerTransfer transfer = NewTransfer();

        TransferResult[] results = Enumerable.Range(1, 5).Select(i => Transfer(transfer, i)).ToArray();

        Assert.Equal(5, _kernel.CallsTo("DuplicateExtents").Count());
        Assert.All(results, r => Assert.Equal(NotClonedReason.RefusedForThisFile, r.Reason));
    }

    [Fact]
    public void A_new_build_tries_the_volume_again()
    {
        _kernel.Fault = (call, _) => call == "DuplicateExtents" ? Win32.ErrorNotSupported : 0;
        ClonerTransfer transfer = NewTransfer();
        transfer.UseVerdictsOf(new BuildVerdicts());
        for (int i = 1; i <= 4; i++)
        {
            Transfer(transfer, i);
        }

        _kernel.Fault = (_, _) => 0;
        transfer.UseVerdictsOf(new BuildVerdicts());

        Assert.Equal(TransferMethod.Cloned, Transfer(transfer, 5).Method);
    }

    [Fact]
    public void Refusals_of_sparse_sources_say_nothing_about_the_volume_and_do_not_count()
    {
        // A sparse source's clone may be refused for its ranges past the allocated clusters (MS-FSCC 2.3.8: "the source
        // range lies beyond the source's allocation"): about that file, which CloneCopy cannot avoid, so it does not
        // count toward the three refusals that stop a volume.
        _kernel.Fault = (call, subject) => call == "DuplicateExtents" && subject.Contains("sparse", StringComparison.Ordinal) ? Win32.ErrorNotSupported : 0;
        ClonerTransfer transfer = NewTransfer();

        TransferResult[] sparse = Enumerable.Range(1, 4).Select(i =>
        {
            string source = TestFiles.Write(Named($"sparse{i}.dll"), 70_000, seed: i);
            _kernel.MarkSparse(source, allocatedBytes: 8192);
            return transfer.Transfer(source, Named($"sparse{i}.copy"), CancellationToken.None);
        }).ToArray();
        TransferResult plain = Transfer(transfer, 9);

        Assert.All(sparse, r => Assert.Equal(NotClonedReason.RefusedForThisFile, r.Reason));
        Assert.Equal(TransferMethod.Cloned, plain.Method);
    }

    [Fact]
    public void A_reseed_copy_whose_integrity_setting_differs_from_its_source_s_is_not_used_and_nothing_is_refused()
    {
        // The copy made at the link limit becomes the seed of later clones; a copy gets integrity streams from its folder
        // (File Attribute Constants), so it may have them where its source has none, and a clone needs "the same
        // Integrity Streams setting" in both files (Block Cloning): every clone from that seed was refused, and three
        // refusals stopped the whole volume.
        string source = TestFiles.Write(Named("pkg.dll"), 70_000, seed: 3);
        string seed = Named("p1.dll");
        int duplicates = 0;
        _kernel.Fault = (call, _) => call == "DuplicateExtents" && ++duplicates == 1 ? Win32.ErrorBlockTooManyReferences : 0;
        ClonerTransfer transfer = NewTransfer();
        Assert.Equal(NotClonedReason.LinkLimit, transfer.Transfer(source, seed, CancellationToken.None).Reason);
        _kernel.SetIntegrity(seed, new IntegrityInformation(Win32.ChecksumTypeCrc64, 0)); // as its folder gave it

        TransferResult[] results = Enumerable.Range(2, 4).Select(i => transfer.Transfer(source, Named($"p{i}.dll"), CancellationToken.None)).ToArray();
        TransferResult other = Transfer(transfer, 9);

        Assert.All(results, r => Assert.Equal(TransferMethod.Cloned, r.Method));
        Assert.All(Enumerable.Range(2, 4), i => Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named($"p{i}.dll"))));
        Assert.Equal(TransferMethod.Cloned, other.Method);
    }

    private TransferResult Transfer(ClonerTransfer transfer, int i) =>
        transfer.Transfer(TestFiles.Write(Named($"{i}.dll"), 10_000, seed: i), Named($"{i}.copy"), CancellationToken.None);

    private ClonerTransfer NewTransfer() => new(() => new WindowsBlockCloner(_kernel), new EngineDiagnostics());

    private string Named(string name) => Path.Combine(_directory, name);
}
