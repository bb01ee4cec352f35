using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using CloneCopy.Tests.Windows;
using Xunit;

namespace CloneCopy.Tests.Engine;

/// <summary>The Windows clone path (CopyOnWrite-shaped filesystem + ClonerTransfer), driven through a fake on Linux.</summary>
public abstract class ClonerTransferCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-cloner").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_clone_gets_the_source_timestamp_and_attributes_that_File_Copy_would_give()
    {
        var cloner = new FakeFileCloner();
        var transfer = NewTransfer(cloner, out _);
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 10_000);

        TransferResult result = transfer.Transfer(source, Path.Combine(_directory, "b.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Single(cloner.Clones);
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(Path.Combine(_directory, "b.dll")));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path.Combine(_directory, "b.dll")));
    }

    [Fact]
    public void A_factory_that_throws_means_copies_and_one_diagnostic_never_an_exception()
    {
        int created = 0;
        var diagnostics = new EngineDiagnostics();
        var transfer = new ClonerTransfer(() => { created++; throw new TypeInitializationException("CopyOnWrite", new IOException("volume enumeration failed: BitLocker locked")); }, diagnostics);

        for (int i = 0; i < 3; i++)
        {
            string source = TestFiles.Write(Path.Combine(_directory, $"s{i}"), 100, i);
            TransferResult result = transfer.Transfer(source, Path.Combine(_directory, $"d{i}"), CancellationToken.None);
            Assert.Equal(NotClonedReason.CloningDisabled, result.Reason);
            Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path.Combine(_directory, $"d{i}")));
        }

        Assert.Equal(1, created);
        Assert.True(diagnostics.TryTake(out EngineDiagnostic diagnostic));
        Assert.Equal(EngineDiagnosticKind.CloningUnavailable, diagnostic.Kind);
        Assert.Contains("BitLocker", diagnostic.Detail);
        Assert.False(diagnostics.TryTake(out _));
    }

    [Fact]
    public void A_volume_probe_that_throws_means_a_copy_and_a_diagnostic()
    {
        var cloner = new FakeFileCloner { ProbeFailure = new ArgumentException("Unknown drive Z:") };
        var transfer = NewTransfer(cloner, out EngineDiagnostics diagnostics);
        string source = TestFiles.Write(Path.Combine(_directory, "a"), 100);

        TransferResult result = transfer.Transfer(source, Path.Combine(_directory, "b"), CancellationToken.None);

        Assert.Equal(NotClonedReason.CloningDisabled, result.Reason);
        Assert.True(diagnostics.TryTake(out EngineDiagnostic diagnostic));
        Assert.Equal(EngineDiagnosticKind.VolumeProbeFailed, diagnostic.Kind);
    }

    [Fact]
    public void A_volume_probe_that_throws_an_IOException_means_a_copy_one_diagnostic_and_a_remembered_verdict()
    {
        // A network drive, a locked or vanished volume: GetVolumeInformationW fails and the probe says so with an IOException.
        var cloner = new FakeFileCloner { ProbeFailure = new IOException("Cannot query volume Z:\\: The device is not ready.") };
        var transfer = NewTransfer(cloner, out EngineDiagnostics diagnostics);

        for (int i = 0; i < 3; i++)
        {
            string source = TestFiles.Write(Path.Combine(_directory, $"s{i}"), 100, i);
            TransferResult result = transfer.Transfer(source, Path.Combine(_directory, $"d{i}"), CancellationToken.None);
            Assert.Equal(NotClonedReason.CloningDisabled, result.Reason);
            Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path.Combine(_directory, $"d{i}")));
        }

        Assert.Equal(1, cloner.Probes);
        Assert.True(diagnostics.TryTake(out EngineDiagnostic diagnostic));
        Assert.Equal(EngineDiagnosticKind.VolumeProbeFailed, diagnostic.Kind);
        Assert.Contains("not ready", diagnostic.Detail);
        Assert.False(diagnostics.TryTake(out _));
    }

    [Fact]
    public void Through_the_task_a_volume_probe_IOException_is_one_CLC002_message_and_the_build_succeeds_without_retries()
    {
        var cloner = new FakeFileCloner { ProbeFailure = new IOException("Cannot query volume Z:\\: The network path was not found.") };
        var transfer = NewTransfer(cloner, out EngineDiagnostics diagnostics);
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(TestFiles.Write(Path.Combine(_directory, "a.dll"), 100)), new TaskItem(TestFiles.Write(Path.Combine(_directory, "b.dll"), 100, 2))],
            DestinationFolder = new TaskItem(Path.Combine(_directory, "out")),
            RetryDelayMilliseconds = 1,
            Transfer = transfer,
            Diagnostics = diagnostics,
        };

        Assert.True(task.Execute(), engine.Describe());
        Assert.Single(engine.Messages, m => m.Code == "CLC002");
        Assert.Empty(engine.Warnings); // no MSB3026 retry
        Assert.Empty(engine.Errors);
    }

    [Fact(Skip = SymbolicLinks.NoneMadeHere, SkipWhen = nameof(SymbolicLinks.Unavailable), SkipType = typeof(SymbolicLinks))]
    [Trait("Needs", "SymbolicLinks")]
    public void A_symbolic_link_source_is_cloned_from_the_file_it_leads_to_whose_volume_decides()
    {
        string volumeA = Directory.CreateDirectory(Path.Combine(_directory, "volA")).FullName;
        string volumeB = Directory.CreateDirectory(Path.Combine(_directory, "volB")).FullName;
        string target = TestFiles.Write(Path.Combine(volumeB, "pkg.dll"), 4096);
        string link = Path.Combine(volumeA, "pkg.dll");
        File.CreateSymbolicLink(link, target);
        var cloner = new FakeFileCloner { VolumeOfPath = p => p.StartsWith(volumeA, StringComparison.Ordinal) ? "A" : "B" };
        var transfer = new ClonerTransfer(() => cloner, new EngineDiagnostics());
        string destination = Path.Combine(volumeB, "out.dll");

        TransferResult result = transfer.Transfer(link, destination, CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(4096, result.Bytes);
        Assert.Equal(target, Assert.Single(cloner.Clones).Source);
        Assert.Equal(File.GetLastWriteTimeUtc(target), File.GetLastWriteTimeUtc(destination));
    }

    [Fact]
    public void An_unsupported_volume_is_probed_once_and_then_remembered()
    {
        var cloner = new FakeFileCloner { Supported = false };
        var transfer = NewTransfer(cloner, out _);

        for (int i = 0; i < 4; i++)
        {
            string source = TestFiles.Write(Path.Combine(_directory, $"s{i}"), 100, i);
            Assert.Equal(NotClonedReason.FilesystemCannotClone, transfer.Transfer(source, Path.Combine(_directory, $"d{i}"), CancellationToken.None).Reason);
        }

        Assert.Equal(1, cloner.Probes);
    }

    [Fact]
    public void A_sharing_violation_falls_back_without_being_remembered()
    {
        var cloner = new FakeFileCloner { CloneFailure = s => s.EndsWith("locked", StringComparison.Ordinal) ? CloneAttempt.NotNow("in use") : null };
        var transfer = NewTransfer(cloner, out _);
        string locked = TestFiles.Write(Path.Combine(_directory, "locked"), 100);
        string free = TestFiles.Write(Path.Combine(_directory, "free"), 100);

        Assert.Equal(NotClonedReason.RefusedForThisFile, transfer.Transfer(locked, Path.Combine(_directory, "d1"), CancellationToken.None).Reason);
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(free, Path.Combine(_directory, "d2"), CancellationToken.None).Method);
    }

    [Fact]
    public void At_the_link_limit_the_pair_is_copied_and_later_clones_use_the_fresh_copy_as_their_source()
    {
        var cloner = new FakeFileCloner { ReferenceLimit = 3 };
        var transfer = NewTransfer(cloner, out EngineDiagnostics diagnostics);
        string source = TestFiles.Write(Path.Combine(_directory, "pkg.dll"), 4096);

        var results = Enumerable.Range(0, 6)
            .Select(i => transfer.Transfer(source, Path.Combine(_directory, $"bin{i}.dll"), CancellationToken.None))
            .ToList();

        // References: clones 0 and 1 bring pkg.dll's blocks to 3; clone 2 would pass the limit.
        Assert.Equal(new[] { TransferMethod.Cloned, TransferMethod.Cloned, TransferMethod.Copied, TransferMethod.Cloned, TransferMethod.Cloned, TransferMethod.Copied }, results.Select(r => r.Method));
        Assert.Equal(NotClonedReason.LinkLimit, results[2].Reason);
        Assert.Equal(Path.Combine(_directory, "bin2.dll"), cloner.Clones[2].Source); // re-seeded from the fresh copy
        Assert.Equal(2, transfer.LinkLimitHits);
        for (int i = 0; i < 6; i++)
        {
            Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path.Combine(_directory, $"bin{i}.dll")));
            Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(Path.Combine(_directory, $"bin{i}.dll")));
        }

        Assert.True(diagnostics.TryTake(out EngineDiagnostic diagnostic));
        Assert.Equal(EngineDiagnosticKind.LinkLimitReached, diagnostic.Kind);
    }

    [Fact]
    public void Through_the_task_the_link_limit_is_one_CLC003_warning_and_the_build_succeeds()
    {
        var cloner = new FakeFileCloner { ReferenceLimit = 2 };
        var transfer = NewTransfer(cloner, out EngineDiagnostics diagnostics);
        string source = TestFiles.Write(Path.Combine(_directory, "pkg.dll"), 4096);
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = Enumerable.Range(0, 8).Select(_ => (ITaskItem)new TaskItem(source)).ToArray(),
            DestinationFiles = Enumerable.Range(0, 8).Select(i => (ITaskItem)new TaskItem(Path.Combine(_directory, $"p{i}", "pkg.dll"))).ToArray(),
            Transfer = transfer,
            Diagnostics = diagnostics,
        };

        Assert.True(task.Execute(), engine.Describe());

        var warning = Assert.Single(engine.Warnings);
        Assert.Equal("CLC003", warning.Code);
        Assert.Contains("8175", warning.Message);
        Assert.Contains("refsutil leak", warning.Message);
        Assert.Empty(engine.Errors);
        Assert.Contains("copied (link limit:", TaskRunnerSummary(engine));
    }

    [Fact]
    public void Through_the_task_a_failing_factory_is_one_CLC001_message_and_the_build_succeeds()
    {
        var diagnostics = new EngineDiagnostics();
        var transfer = new ClonerTransfer(() => throw new InvalidOperationException("no volumes"), diagnostics);
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 100);
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source), new TaskItem(TestFiles.Write(Path.Combine(_directory, "b.dll"), 100, 2))],
            DestinationFolder = new TaskItem(Path.Combine(_directory, "out")),
            Transfer = transfer,
            Diagnostics = diagnostics,
        };

        Assert.True(task.Execute(), engine.Describe());
        var message = Assert.Single(engine.Messages, m => m.Code == "CLC001");
        Assert.Equal(MessageImportance.High, message.Importance);
        Assert.Empty(engine.Warnings);
        Assert.Contains("copied (cloning disabled: 2)", TaskRunnerSummary(engine));
    }

    private static string TaskRunnerSummary(TestBuildEngine engine) => Task.TaskRunner.Summary(engine);

    private static ClonerTransfer NewTransfer(FakeFileCloner cloner, out EngineDiagnostics diagnostics)
    {
        diagnostics = new EngineDiagnostics();
        return new ClonerTransfer(() => cloner, diagnostics);
    }
}
