using System;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// Sources written moments ago (WindowsBlockCloner.FreshSources.cs). The simulator clones a file whose data is still in
/// the cache as zeros (<see cref="SimulatedWindowsSystemCalls.WrittenNotFlushed"/>: microsoft/CopyOnWrite #12, "success
/// is returned but ... the destination file having all zeroes", git-lfs #6312 and its fix #6323) until it is flushed,
/// and FlushFileBuffers needs GENERIC_WRITE (its page). The volume is first trusted by one clone read back right, so
/// only the mitigation stands between a fresh source and a wrong file nobody reads.
/// </summary>
public abstract class FreshSourceCases : IDisposable
{
    private const int Size = 3 << 20;
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-fresh").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new() { OsBuild = 20348 };
    private readonly EngineDiagnostics _diagnostics = new();

    protected FreshSourceCases() => _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{77777777-0000-0000-0000-000000000077}\");

    public void Dispose()
    {
        foreach (string file in Directory.GetFiles(_directory, "*", SearchOption.AllDirectories))
        {
            File.SetAttributes(file, FileAttributes.Normal);
        }

        Directory.Delete(_directory, recursive: true);
    }

    [Fact]
    public void Many_threads_cloning_one_source_written_moments_ago_all_get_its_bytes()
    {
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("obj", "x.dll"), Size, seed: 7);
        _kernel.WrittenNotFlushed(source);

        // Each look at the source and the flush take a while, so that the threads' handles overlap as on a busy volume:
        // a writable open for the flush is refused while another thread holds the source denying writers, and an open
        // denying writers while the flushing thread holds it for writing, unless the threads of this process wait for
        // the one that flushes.
        _kernel.Fault = (call, _) =>
        {
            if (call is "QueryAllInformation" or "FlushFileBuffers")
            {
                Thread.Sleep(call == "FlushFileBuffers" ? 100 : 20);
            }

            return 0;
        };
        TransferResult[] results = new TransferResult[16];
        Parallel.For(0, results.Length, new ParallelOptions { MaxDegreeOfParallelism = 8 }, i =>
            results[i] = transfer.Transfer(source, Named($"bin{i}", "x.dll"), CancellationToken.None));

        byte[] expected = File.ReadAllBytes(source);
        Assert.All(results, r => Assert.Equal(TransferMethod.Cloned, r.Method));
        Assert.All(Enumerable.Range(0, results.Length), i => Assert.True(expected.AsSpan().SequenceEqual(File.ReadAllBytes(Named($"bin{i}", "x.dll"))), $"bin{i}/x.dll differs from its source"));
        Assert.False(_kernel.IsUnflushed(source));
        Assert.NotEmpty(_kernel.CallsTo("FlushFileBuffers"));
        Assert.False(_diagnostics.TryTake(out _));
        Assert.Equal(0, _kernel.OpenHandles);
    }

    [Fact]
    public void A_fresh_read_only_source_that_cannot_be_flushed_has_its_clone_read_back_whole_and_a_zero_clone_becomes_a_right_copy()
    {
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("obj", "ro.dll"), Size, seed: 8);
        File.SetAttributes(source, FileAttributes.ReadOnly);
        _kernel.WrittenNotFlushed(source);
        int readBacks = transfer.Verifier.ReadBacks;

        TransferResult result = transfer.Transfer(source, Named("bin", "ro.dll"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (result.Method, result.Reason));
        Assert.Equal(readBacks + 1, transfer.Verifier.ReadBacks);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin", "ro.dll")));
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(Named("bin", "ro.dll")));
        Assert.True(File.GetAttributes(Named("bin", "ro.dll")).HasFlag(FileAttributes.ReadOnly));
        Assert.True(_diagnostics.TryTake(out EngineDiagnostic said));
        Assert.Equal(EngineDiagnosticKind.CloneReadBackDiffered, said.Kind);
        Assert.Empty(_kernel.CallsTo("FlushFileBuffers")); // the writable open was refused: nothing to flush with
    }

    [Fact]
    public void A_fresh_read_only_source_whose_clone_is_right_is_cloned_after_a_whole_read_back()
    {
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("obj", "ok.dll"), Size, seed: 9);
        File.SetAttributes(source, FileAttributes.ReadOnly);
        int readBacks = transfer.Verifier.ReadBacks;

        TransferResult result = transfer.Transfer(source, Named("bin", "ok.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(readBacks + 1, transfer.Verifier.ReadBacks); // read although the volume is trusted
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin", "ok.dll")));
    }

    [Fact]
    public void A_fresh_source_is_flushed_once_and_an_old_one_never()
    {
        ClonerTransfer transfer = Trusted();
        string fresh = TestFiles.Write(Named("obj", "f.dll"), 10_000, seed: 10);
        string old = TestFiles.Write(Named("obj", "o.dll"), 10_000, seed: 11);
        _kernel.Age(old, TimeSpan.FromHours(1));
        _kernel.Calls.Clear();

        foreach (int i in Enumerable.Range(1, 3))
        {
            Assert.Equal(TransferMethod.Cloned, transfer.Transfer(fresh, Named($"b{i}", "f.dll"), CancellationToken.None).Method);
            Assert.Equal(TransferMethod.Cloned, transfer.Transfer(old, Named($"b{i}", "o.dll"), CancellationToken.None).Method);
        }

        Assert.Equal(new[] { $"FlushFileBuffers {fresh}" }, _kernel.CallsTo("FlushFileBuffers"));
    }

    [Fact]
    public void A_fresh_copy_is_flushed_before_it_becomes_the_seed_of_later_clones()
    {
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("pkg", "p.dll"), 70_000, seed: 12);
        _kernel.Age(source, TimeSpan.FromHours(1));
        string seed = Named("p1", "p.dll");
        int duplicates = 0, seedOpens = 0;
        _kernel.Fault = (call, subject) =>
        {
            if (call == "CreateFile" && subject == seed && ++seedOpens == 2)
            {
                _kernel.WrittenNotFlushed(seed); // File.Copy's copy, just made: its data in the cache when the cloner first opens it
            }

            return call == "DuplicateExtents" && ++duplicates == 1 ? Win32.ErrorBlockTooManyReferences : 0;
        };
        Assert.Equal(NotClonedReason.LinkLimit, transfer.Transfer(source, seed, CancellationToken.None).Reason);

        TransferResult result = transfer.Transfer(source, Named("p2", "p.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("p2", "p.dll")));
    }

    /// <summary>A transfer whose volume has had one clone read back right (an old file): later clones there are not read back.</summary>
    private ClonerTransfer Trusted()
    {
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(_kernel), _diagnostics);
        string first = TestFiles.Write(Named("warm", "first.dll"), 10_000, seed: 1);
        _kernel.Age(first, TimeSpan.FromHours(1));
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(first, Named("warm", "first.copy"), CancellationToken.None).Method);
        Assert.Equal(1, transfer.Verifier.ReadBacks);
        return transfer;
    }

    private string Named(string folder, string name)
    {
        Directory.CreateDirectory(Path.Combine(_directory, folder));
        return Path.Combine(_directory, folder, name);
    }
}
