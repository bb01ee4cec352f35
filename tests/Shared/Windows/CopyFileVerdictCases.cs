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
/// Where Windows' CopyFile clones by itself (Windows 11 from the Moment 5 update and later builds, on ReFS and Dev
/// Drive: the Block Cloning page), files are left to it. Whether it does is learnt once per volume per build from a
/// real destination CopyFile writes anyway, never from files of CloneCopy's own in the user's folders: the first file
/// of 64 KiB to 4 MiB is copied with CopyFileW and its first cluster compared with its source's
/// (FSCTL_GET_RETRIEVAL_POINTERS; cluster numbers, not reference counts, which ReFS updates late).
/// </summary>
public abstract class CopyFileVerdictCases : IDisposable
{
    private const int Large = 70_000;
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-copyfile").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new();
    private readonly SimulatedVolume _volume;

    protected CopyFileVerdictCases() => _volume = _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{99999999-0000-0000-0000-000000000009}\");

    public void Dispose()
    {
        foreach (string file in Directory.GetFiles(_directory))
        {
            File.SetAttributes(file, FileAttributes.Normal);
        }

        Directory.Delete(_directory, recursive: true);
    }

    [Fact]
    public void The_probe_writes_nothing_in_the_folder_but_the_destination_even_when_every_delete_fails()
    {
        _volume.CopyFileClones = true;
        _kernel.Fault = (call, _) => call is "DeleteFile" ? Win32.ErrorAccessDenied : 0;
        string source = TestFiles.Write(Named("a.dll"), Large);

        NewTransfer().Transfer(source, Named("b.dll"), CancellationToken.None);

        Assert.Equal(new[] { "a.dll", "b.dll" }, Directory.GetFiles(_directory).Select(Path.GetFileName).Order());
        Assert.All(_kernel.CallsTo("CopyFile"), c => Assert.Equal($"CopyFile {Named("b.dll")}", c));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("b.dll")));
    }

    [Fact]
    public void Where_CopyFile_clones_the_first_large_file_is_its_clone_and_later_files_are_left_to_it()
    {
        _volume.CopyFileClones = true;
        ClonerTransfer transfer = NewTransfer();

        TransferResult first = transfer.Transfer(TestFiles.Write(Named("a.dll"), Large, seed: 1), Named("a.copy"), CancellationToken.None);
        TransferResult second = transfer.Transfer(TestFiles.Write(Named("b.dll"), Large, seed: 2), Named("b.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, first.Method); // CopyFile's own clone, its clusters seen shared with the source's
        Assert.Equal((TransferMethod.Copied, NotClonedReason.CopyFileClonesHere), (second.Method, second.Reason));
        Assert.Empty(_kernel.CallsTo("DuplicateExtents"));
        Assert.Equal(2, _kernel.ReferencesOf(Named("a.dll")));
        Assert.Equal(File.ReadAllBytes(Named("a.dll")), File.ReadAllBytes(Named("a.copy")));
    }

    [Fact]
    public void Where_CopyFile_does_not_clone_the_probe_s_copy_is_kept_as_a_copy_and_no_later_file_probes()
    {
        // CopyFile's copy is a correct copy, the one MSBuild's Copy would have made: nothing requires deleting it, and
        // deleting it could leave the name delete-pending behind a scanner.
        ClonerTransfer transfer = NewTransfer();

        TransferResult first = transfer.Transfer(TestFiles.Write(Named("a.dll"), Large, seed: 1), Named("a.copy"), CancellationToken.None);
        TransferResult second = transfer.Transfer(TestFiles.Write(Named("b.dll"), Large, seed: 2), Named("b.copy"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.CopyFileCopiedWhenAsked), (first.Method, first.Reason));
        Assert.Equal(Large, first.Bytes);
        Assert.Equal(TransferMethod.Cloned, second.Method);
        Assert.Equal(new[] { $"CopyFile {Named("a.copy")}" }, _kernel.CallsTo("CopyFile"));
        Assert.Equal(new[] { $"DuplicateExtents {Named("b.copy")} 0 0 {RoundedToCluster(Large)}" }, _kernel.CallsTo("DuplicateExtents"));
        Assert.DoesNotContain(_kernel.Calls, c => c.Contains(Named("a.copy"), StringComparison.Ordinal) && (c.StartsWith("SetDisposition", StringComparison.Ordinal) || c.StartsWith("SetDeleteOnClose", StringComparison.Ordinal) || c.StartsWith("DeleteFile", StringComparison.Ordinal)));
        Assert.Empty(_kernel.Violations);
        Assert.Equal(File.ReadAllBytes(Named("a.dll")), File.ReadAllBytes(Named("a.copy")));
        Assert.Equal(new[] { "a.copy", "a.dll", "b.copy", "b.dll" }, Directory.GetFiles(_directory).Select(Path.GetFileName).Order());
    }

    [Fact]
    public void A_scanner_holding_the_probe_s_copy_on_a_volume_without_POSIX_delete_changes_nothing()
    {
        // The old probe deleted its copy and created the name again: without POSIX delete a scanner holding the copy kept
        // the name delete-pending (WDK FILE_DISPOSITION_INFORMATION), and the clone and the copy after it met access
        // denied. The copy is kept now: the scanner can hold it as long as it likes.
        _volume.PosixUnlinkRename = false;
        Microsoft.Win32.SafeHandles.SafeFileHandle? scanner = null;
        _kernel.Fault = (call, subject) =>
        {
            if (call == "GetExtents" && subject == Named("a.copy") && scanner is null)
            {
                scanner = _kernel.OpenForeign(Named("a.copy"), Win32.GenericRead, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, ignoreShareAccess: true);
            }

            return 0;
        };

        TransferResult first = NewTransfer().Transfer(TestFiles.Write(Named("a.dll"), Large, seed: 1), Named("a.copy"), CancellationToken.None);

        Assert.NotNull(scanner);
        Assert.Equal((TransferMethod.Copied, NotClonedReason.CopyFileCopiedWhenAsked), (first.Method, first.Reason));
        Assert.False(_kernel.IsDeletePending(Named("a.copy")));
        _kernel.CloseHandle(scanner!);
        Assert.Equal(File.ReadAllBytes(Named("a.dll")), File.ReadAllBytes(Named("a.copy")));
    }

    [Fact]
    public void A_read_only_source_may_ask_the_question_now_that_its_copy_is_kept()
    {
        // CopyFile's copy of a read-only file is read-only: the plain disposition refuses it (STATUS_CANNOT_DELETE,
        // MS-FSA 2.1.5.15.3) and so does DeleteFileW. The copy is never deleted now, so such a source asks too.
        _volume.PosixUnlinkRename = false;
        string readOnly = TestFiles.Write(Named("a.dll"), Large, seed: 1);
        File.SetAttributes(readOnly, FileAttributes.ReadOnly);
        ClonerTransfer transfer = NewTransfer();

        TransferResult first = transfer.Transfer(readOnly, Named("a.copy"), CancellationToken.None);
        TransferResult second = transfer.Transfer(TestFiles.Write(Named("b.dll"), Large, seed: 2), Named("b.copy"), CancellationToken.None);

        Assert.Equal((NotClonedReason.CopyFileCopiedWhenAsked, TransferMethod.Cloned), (first.Reason, second.Method));
        Assert.Equal(new[] { $"CopyFile {Named("a.copy")}" }, _kernel.CallsTo("CopyFile"));
        Assert.Equal(File.ReadAllBytes(readOnly), File.ReadAllBytes(Named("a.copy")));
    }

    [Fact]
    public void Cluster_numbers_decide_not_reference_counts_which_ReFS_updates_late()
    {
        _volume.CopyFileClones = true;
        _kernel.DelayedReferenceCounts = true;

        TransferResult first = NewTransfer().Transfer(TestFiles.Write(Named("a.dll"), Large), Named("a.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, first.Method);
        Assert.Empty(_kernel.CallsTo("DuplicateExtents"));
    }

    [Fact]
    public void Where_a_file_s_clusters_cannot_be_told_CloneCopy_clones_on_that_volume()
    {
        // A volume that keeps small files' data resident has no extents to compare (ERROR_HANDLE_EOF): no answer is
        // taken for "CopyFile does not clone", the safe side; the copy is kept, a correct copy.
        _volume.CopyFileClones = true;
        _volume.ResidentDataBelow = 1 << 20;
        ClonerTransfer transfer = NewTransfer();

        TransferResult first = transfer.Transfer(TestFiles.Write(Named("a.dll"), Large, seed: 1), Named("a.copy"), CancellationToken.None);
        TransferResult second = transfer.Transfer(TestFiles.Write(Named("b.dll"), Large, seed: 2), Named("b.copy"), CancellationToken.None);

        Assert.Equal((NotClonedReason.CopyFileCopiedWhenAsked, TransferMethod.Cloned), (first.Reason, second.Method));
        Assert.Single(_kernel.CallsTo("CopyFile"));
        Assert.Single(_kernel.CallsTo("DuplicateExtents"));
        Assert.Empty(_kernel.Violations);
    }

    [Fact]
    public void A_file_under_64_KiB_is_cloned_by_CloneCopy_and_does_not_probe()
    {
        _volume.CopyFileClones = true;

        TransferResult result = NewTransfer().Transfer(TestFiles.Write(Named("a.dll"), 5000), Named("a.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Empty(_kernel.CallsTo("CopyFile"));
    }

    [Fact]
    public void A_file_over_4_MiB_is_cloned_by_CloneCopy_and_the_next_file_in_range_asks()
    {
        // Where CopyFile copies, the probe's copy is kept as a full copy, not a clone: a large file would lose its clone.
        ClonerTransfer transfer = NewTransfer();

        TransferResult large = transfer.Transfer(TestFiles.Write(Named("big.dll"), (int)WindowsBlockCloner.CopyFileProbeMaximum + 1, seed: 1), Named("big.copy"), CancellationToken.None);
        TransferResult next = transfer.Transfer(TestFiles.Write(Named("a.dll"), Large, seed: 2), Named("a.copy"), CancellationToken.None);

        Assert.Equal((TransferMethod.Cloned, NotClonedReason.CopyFileCopiedWhenAsked), (large.Method, next.Reason));
        Assert.Equal(new[] { $"CopyFile {Named("a.copy")}" }, _kernel.CallsTo("CopyFile"));
        Assert.Equal(File.ReadAllBytes(Named("big.dll")), File.ReadAllBytes(Named("big.copy")));
    }

    [Theory]
    [InlineData(22620)] // the build before the line
    [InlineData(20348)] // Windows Server 2022
    [InlineData(19045)] // Windows 10 22H2
    public void Builds_before_the_Moment_5_line_never_probe(int build)
    {
        _kernel.OsBuild = build;
        _volume.CopyFileClones = true; // (what a later Windows would do there)

        TransferResult result = NewTransfer().Transfer(TestFiles.Write(Named("a.dll"), Large), Named("a.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Empty(_kernel.CallsTo("CopyFile"));
    }

    /// <summary>22621 is Windows 11 22H2, which Moment 5 (KB5034848) updated: the line's first build asks the question.</summary>
    [Theory]
    [InlineData(22621)] // Windows 11 22H2, Moment 5
    [InlineData(22631)] // Windows 11 23H2
    public void From_the_Moment_5_line_on_the_first_file_in_range_asks_whether_CopyFile_clones(int build)
    {
        _kernel.OsBuild = build;
        _volume.CopyFileClones = true;

        TransferResult result = NewTransfer().Transfer(TestFiles.Write(Named("a.dll"), Large), Named("a.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(new[] { $"CopyFile {Named("a.copy")}" }, _kernel.CallsTo("CopyFile"));
        Assert.Empty(_kernel.CallsTo("DuplicateExtents"));
    }

    [Fact]
    public void One_probe_per_volume_however_many_threads_ask()
    {
        _volume.CopyFileClones = true;
        const int Threads = 6;
        string[] sources = Enumerable.Range(0, Threads).Select(i => TestFiles.Write(Named($"s{i}.dll"), Large, seed: i + 1)).ToArray();
        ClonerTransfer transfer = NewTransfer();
        using var othersDone = new ManualResetEventSlim();
        int copyFiles = 0, finished = 0;
        _kernel.Fault = (call, _) =>
        {
            // The first CopyFile waits until every other thread has finished its file: any of them that probes too
            // calls CopyFile meanwhile. (The waiting thread cannot finish before it, so the others are all done then.)
            if (call == "CopyFile" && Interlocked.Increment(ref copyFiles) == 1)
            {
                othersDone.Wait(TimeSpan.FromSeconds(60));
            }

            return 0;
        };

        var results = new TransferResult[Threads];
        var threads = Enumerable.Range(0, Threads).Select(i => new Thread(() =>
        {
            results[i] = transfer.Transfer(sources[i], Named($"d{i}.dll"), CancellationToken.None);
            if (Interlocked.Increment(ref finished) == Threads - 1)
            {
                othersDone.Set();
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());

        Assert.Equal(1, copyFiles);
        Assert.All(Enumerable.Range(0, Threads), i => Assert.Equal(File.ReadAllBytes(sources[i]), File.ReadAllBytes(Named($"d{i}.dll"))));
        Assert.All(results, r => Assert.Equal(TransferMethod.Cloned, r.Method)); // the probe's by CopyFile, the others by CloneCopy meanwhile
    }

    [Fact]
    public void With_the_guard_on_a_file_is_cloned_by_CloneCopy_even_where_CopyFile_clones()
    {
        _volume.CopyFileClones = true;
        ClonerTransfer transfer = NewTransfer();
        transfer.UseVerdictsOf(new BuildVerdicts { ClonesMustBeKnown = true });
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(TestFiles.Write(Named("a.dll"), Large, seed: 1), Named("a.copy"), CancellationToken.None).Method);

        TransferResult second = transfer.Transfer(TestFiles.Write(Named("b.dll"), Large, seed: 2), Named("b.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, second.Method);
        Assert.Single(_kernel.CallsTo("DuplicateExtents"), c => c.StartsWith($"DuplicateExtents {Named("b.copy")} ", StringComparison.Ordinal));

        // Nor is the CopyFile question asked: where CopyFile copies, its copy is kept, a file the guard would count as
        // not cloned on a volume that clones.
        Assert.Empty(_kernel.CallsTo("CopyFile"));
    }

    [Fact]
    public void A_read_only_file_whose_copy_the_test_hook_cannot_open_for_writing_leaves_the_question_open()
    {
        // The read-back's test hook writes the clone, so the probe opens CopyFile's copy for writing too; a read-only
        // source's copy is READONLY and refuses that open (File Attribute Constants). That refusal is the hook's, not an
        // answer to whether CopyFile clones: the next file asks again, finds that it clones, and files after it are left
        // to CopyFile. (Without the hook the copy is opened for reading and deleting only, which READONLY allows.)
        _kernel.OsBuild = 22631;
        _volume.CopyFileClones = true;
        ClonerTransfer transfer = NewTransfer();
        var hooked = new System.Collections.Generic.List<string>();
        transfer.Verifier.AfterCloneForTests = (_, path) => hooked.Add(path); // present, changes nothing
        string readOnly = TestFiles.Write(Named("ro.dll"), Large, seed: 1);
        File.SetAttributes(readOnly, FileAttributes.ReadOnly);

        TransferResult first = transfer.Transfer(readOnly, Named("ro.copy"), CancellationToken.None);
        TransferResult second = transfer.Transfer(TestFiles.Write(Named("a.dll"), Large, seed: 2), Named("a.copy"), CancellationToken.None);
        TransferResult third = transfer.Transfer(TestFiles.Write(Named("b.dll"), Large, seed: 3), Named("b.copy"), CancellationToken.None);

        Assert.Equal(NotClonedReason.CopyFileCopiedWhenAsked, first.Reason); // CopyFile's copy, kept
        Assert.Equal(File.ReadAllBytes(readOnly), File.ReadAllBytes(Named("ro.copy")));
        Assert.Equal((TransferMethod.Cloned, NotClonedReason.None), (second.Method, second.Reason)); // asked again: CopyFile's clone
        Assert.Equal(new[] { $"CopyFile {Named("ro.copy")}", $"CopyFile {Named("a.copy")}" }, _kernel.CallsTo("CopyFile"));
        Assert.Equal(NotClonedReason.CopyFileClonesHere, third.Reason);
        Assert.Equal(new[] { Named("a.copy") }, hooked);
    }

    private ClonerTransfer NewTransfer() => new(() => new WindowsBlockCloner(_kernel), new EngineDiagnostics());

    private string Named(string name) => Path.Combine(_directory, name);

    private static long RoundedToCluster(long length) => (length + 4095) / 4096 * 4096;
}
