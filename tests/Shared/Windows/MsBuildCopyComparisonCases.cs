using System;
using System.IO;
using System.Security.Cryptography;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The checks of the Windows CI job's experiment (scripts/windows/compare-with-msbuild-copy.ps1) against the
/// simulator, so that the job's first real run tests the model: each source is cloned with the guard and every clone
/// read back (CloneCopyVerifyClones), and compared with what MSBuild's Copy makes of it (CopyFileW, on Windows Server
/// 2022 where CopyFile does not clone): SHA-256, last-write time, attributes, sparse flag, integrity streams, then
/// reference counts (the clone's shared with its source, the copy's its own). The file just over 4 GiB is the job's
/// alone (its chunks: BlockCloneTransferCases); here it would write 4 GiB through the simulator's CopyFile.
/// </summary>
public abstract class MsBuildCopyComparisonCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-vs-msbuild").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new() { OsBuild = 20348 };

    protected MsBuildCopyComparisonCases()
    {
        _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{22222222-0000-0000-0000-000000002022}\");
        Directory.CreateDirectory(Named("clone"));
        Directory.CreateDirectory(Named("copy"));
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Theory]
    [InlineData("one-byte", 1)]
    [InlineData("cluster-plus-one", 4097)]
    [InlineData("sixty-four-k-plus-one", 65537)]
    [InlineData("sparse-with-holes", 8 << 20)]
    [InlineData("integrity", 100_000)]
    public void A_clone_matches_MSBuild_s_Copy_of_the_same_file(string name, int length)
    {
        string source = TestFiles.Write(Named($"{name}.bin"), length, seed: length % 1000);
        if (name == "sparse-with-holes")
        {
            _kernel.MarkSparse(source, allocatedBytes: 1 << 20);
        }

        if (name == "integrity")
        {
            _kernel.SetIntegrity(source, new IntegrityInformation(Win32.ChecksumTypeCrc64, 0));
        }

        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(_kernel), new EngineDiagnostics());
        transfer.UseVerdictsOf(new BuildVerdicts { ClonesMustBeKnown = true, VerifyClones = true });
        string clone = Path.Combine(Named("clone"), $"{name}.bin"), copy = Path.Combine(Named("copy"), $"{name}.bin");

        TransferResult result = transfer.Transfer(source, clone, CancellationToken.None);
        Assert.Equal(0, _kernel.CopyFile(source, copy)); // MSBuild's Copy: CopyFileW

        Assert.Equal(TransferMethod.Cloned, result.Method); // the guard would fail the build otherwise
        Assert.Equal(Sha256(copy), Sha256(clone));
        Assert.Equal(File.GetLastWriteTimeUtc(copy), File.GetLastWriteTimeUtc(clone));
        Assert.Equal(File.GetAttributes(copy), File.GetAttributes(clone));
        Assert.Equal(_kernel.IsSparse(copy), _kernel.IsSparse(clone));
        Assert.Equal(_kernel.IntegrityOf(copy).ChecksumAlgorithm != Win32.ChecksumTypeNone, _kernel.IntegrityOf(clone).ChecksumAlgorithm != Win32.ChecksumTypeNone);
        Assert.True(_kernel.ReferencesOf(clone) >= 2, $"the clone's blocks have {_kernel.ReferencesOf(clone)} reference(s)");
        Assert.Equal(1, _kernel.ReferencesOf(copy));
        Assert.Equal(1, transfer.Verifier.ReadBacks);
    }

    private static string Sha256(string path) => Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(path)));

    private string Named(string name) => Path.Combine(_directory, name);
}
