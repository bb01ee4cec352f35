using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The block-clone steps on real Wine files: the volume is made to claim block refcounting and the clone
/// FSCTLs are scripted (<see cref="RecordingWindowsSystemCalls"/>), while CreateFile, FSCTL_SET_SPARSE, the end of
/// file, DeleteFile, and the attributes and timestamps set afterwards are Wine's own.
/// </summary>
// Wine's answers, not Windows': left out where the Windows lane runs natively (.ci/windows-steps.yml).
[Trait("Needs", "Wine")]
public sealed class BlockCloneUnderWineTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-winclone").FullName;

    public void Dispose()
    {
        foreach (string file in Directory.GetFiles(_directory, "*", SearchOption.AllDirectories))
        {
            File.SetAttributes(file, FileAttributes.Normal);
        }

        Directory.Delete(_directory, recursive: true);
    }

    [Fact]
    public void A_clone_runs_its_steps_on_real_files_and_ends_with_the_attributes_and_timestamp_File_Copy_gives()
    {
        var kernel = new RecordingWindowsSystemCalls { ClaimBlockRefcounting = true, Fsctl = (_, _) => 0 };
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 10_000);
        File.SetAttributes(source, FileAttributes.ReadOnly | FileAttributes.Hidden | FileAttributes.Archive);
        File.Copy(source, Path.Combine(_directory, "by-file-copy.dll"));
        string destination = Path.Combine(_directory, "cloned.dll");

        TransferResult result = Transfer(kernel).Transfer(source, destination, CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        Assert.Equal(File.GetAttributes(Path.Combine(_directory, "by-file-copy.dll")), File.GetAttributes(destination));
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(destination));
        Assert.Contains($"CreateFile {destination} CreateNew => 0", kernel.Calls);
        Assert.Equal(new[] { "SetSparse True => 0", "SetEndOfFile 10000 => 0" }, kernel.Calls.Where(c => c.StartsWith("Set", StringComparison.Ordinal)).Take(2));
        Assert.DoesNotContain(kernel.Calls, c => c.Contains("IntegrityInformation", StringComparison.Ordinal)); // neither file has integrity streams
        Assert.Empty(kernel.CallsTo("SetDeleteOnClose")); // a clone that succeeds is never marked for deletion
        Assert.Empty(kernel.CallsTo("SetDispositionEx"));
        Assert.Contains("SetSparse False => 0", kernel.Calls);
    }

    [Fact]
    public void Wine_answers_the_clone_FSCTL_with_ERROR_NOT_SUPPORTED_a_refusal_of_that_file_only_and_leaves_no_half_file()
    {
        var kernel = new RecordingWindowsSystemCalls { ClaimBlockRefcounting = true };
        ClonerTransfer transfer = Transfer(kernel);
        string first = TestFiles.Write(Path.Combine(_directory, "a.dll"), 5000, 1);
        string second = TestFiles.Write(Path.Combine(_directory, "b.dll"), 5000, 2);

        TransferResult refused = transfer.Transfer(first, Path.Combine(_directory, "a.copy"), CancellationToken.None);
        TransferResult remembered = transfer.Transfer(second, Path.Combine(_directory, "b.copy"), CancellationToken.None);

        Assert.Contains($"DuplicateExtents wine 0 8192 => {Win32.ErrorNotSupported}", kernel.Calls);
        AssertMarkedThenClosed(kernel); // Wine's disposition: the half file goes when its handle closes
        // MS-FSCC 2.3.8 lists STATUS_NOT_SUPPORTED for per-file conditions (Windows answers a volume that
        // cannot clone with STATUS_INVALID_DEVICE_REQUEST): each file is refused on its own.
        Assert.Equal(NotClonedReason.RefusedForThisFile, refused.Reason);
        Assert.Equal(NotClonedReason.RefusedForThisFile, remembered.Reason);
        Assert.Equal(2, kernel.CallsTo("DuplicateExtents").Count());
        Assert.Equal(File.ReadAllBytes(first), File.ReadAllBytes(Path.Combine(_directory, "a.copy")));
        Assert.Equal(File.GetLastWriteTimeUtc(first), File.GetLastWriteTimeUtc(Path.Combine(_directory, "a.copy")));
    }

    [Fact]
    public void Disk_full_half_way_deletes_the_half_made_clone_on_the_real_filesystem_and_File_Copy_has_the_last_word()
    {
        var kernel = new RecordingWindowsSystemCalls { ClaimBlockRefcounting = true, Fsctl = (name, n) => name == "DuplicateExtents" && n == 2 ? Win32.ErrorDiskFull : 0 };
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 200_000);
        string destination = Path.Combine(_directory, "b.dll");

        // The half-made clone is deleted by Wine when its handle (marked delete-on-close) closes; File.Copy then
        // copies (this disk has room), as MSBuild's Copy would have, or on a really full disk fails with .NET's
        // own exception.
        TransferResult result = Transfer(kernel, chunkSize: 64 * 1024).Transfer(source, destination, CancellationToken.None);

        AssertMarkedThenClosed(kernel);
        Assert.Equal(TransferMethod.Copied, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
    }

    [Fact]
    public void Cancelled_half_way_the_file_marked_delete_on_close_is_gone_on_the_real_filesystem()
    {
        using var cancellation = new CancellationTokenSource();
        var kernel = new RecordingWindowsSystemCalls
        {
            ClaimBlockRefcounting = true,
            Fsctl = (name, _) =>
            {
                if (name == "DuplicateExtents")
                {
                    cancellation.Cancel();
                }

                return 0;
            },
        };
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 200_000);
        string destination = Path.Combine(_directory, "b.dll");

        Assert.ThrowsAny<OperationCanceledException>(() => Transfer(kernel, chunkSize: 64 * 1024).Transfer(source, destination, cancellation.Token));

        AssertMarkedThenClosed(kernel);
        Assert.DoesNotContain(kernel.Calls, c => c.StartsWith($"DeleteFile {destination} ", StringComparison.Ordinal));
        Assert.False(File.Exists(destination));
    }

    [Fact]
    public void Through_the_task_the_link_limit_answer_347_is_a_copy_and_one_CLC003_warning()
    {
        var kernel = new RecordingWindowsSystemCalls { ClaimBlockRefcounting = true, Fsctl = (name, n) => name == "DuplicateExtents" && n == 1 ? Win32.ErrorBlockTooManyReferences : 0 };
        var diagnostics = new EngineDiagnostics();
        string source = TestFiles.Write(Path.Combine(_directory, "pkg.dll"), 8192);
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source), new TaskItem(source)],
            DestinationFiles = [new TaskItem(Path.Combine(_directory, "p1", "pkg.dll")), new TaskItem(Path.Combine(_directory, "p2", "pkg.dll"))],
            Transfer = new ClonerTransfer(() => new WindowsBlockCloner(kernel.Seam), diagnostics),
            Diagnostics = diagnostics,
        };

        Assert.True(task.Execute(), engine.Describe());

        Assert.Equal("CLC003", Assert.Single(engine.Warnings).Code);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path.Combine(_directory, "p1", "pkg.dll")));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path.Combine(_directory, "p2", "pkg.dll")));
    }

    [Fact]
    public void A_source_open_elsewhere_without_sharing_is_a_sharing_violation_that_File_Copy_reports_and_nothing_is_left()
    {
        var kernel = new RecordingWindowsSystemCalls { ClaimBlockRefcounting = true, Fsctl = (_, _) => 0 };
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 5000);
        string destination = Path.Combine(_directory, "b.dll");

        using (new FileStream(source, FileMode.Open, FileAccess.ReadWrite, FileShare.None))
        {
            Assert.Throws<IOException>(() => Transfer(kernel).Transfer(source, destination, CancellationToken.None));
        }

        Assert.Contains($"CreateFile {source} OpenExisting => {Win32.ErrorSharingViolation}", kernel.Calls);
        Assert.False(File.Exists(destination));
    }

    [Fact]
    public void A_source_another_process_is_writing_is_a_sharing_violation_for_the_clone_and_Wine_s_CopyFile_copies_it()
    {
        // The clone's source is opened sharing read and delete only (deny writers); a writer that shares read and
        // write refuses that open. File.Copy (CopyFileExW, which in Wine shares write too) then copies the file.
        var kernel = new RecordingWindowsSystemCalls { ClaimBlockRefcounting = true, Fsctl = (_, _) => 0 };
        string source = TestFiles.Write(Path.Combine(_directory, "busy.dll"), 5000);
        string destination = Path.Combine(_directory, "b.dll");

        TransferResult result;
        using (new FileStream(source, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite))
        {
            result = Transfer(kernel).Transfer(source, destination, CancellationToken.None);
        }

        Assert.Contains($"CreateFile {source} OpenExisting => {Win32.ErrorSharingViolation}", kernel.Calls);
        Assert.Equal((TransferMethod.Copied, NotClonedReason.SourceSharingViolation), (result.Method, result.Reason));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
    }

    [Fact]
    public void An_existing_read_only_destination_is_left_to_File_Copy_which_refuses_it_as_on_Windows()
    {
        var kernel = new RecordingWindowsSystemCalls { ClaimBlockRefcounting = true, Fsctl = (_, _) => 0 };
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 5000, 1);
        string destination = TestFiles.Write(Path.Combine(_directory, "kept.dll"), 10, 2);
        File.SetAttributes(destination, FileAttributes.ReadOnly);

        Assert.Throws<UnauthorizedAccessException>(() => Transfer(kernel).Transfer(source, destination, CancellationToken.None));

        Assert.Contains($"CreateFile {destination} CreateNew => {Win32.ErrorFileExists}", kernel.Calls);
        Assert.DoesNotContain(kernel.Calls, c => c.StartsWith($"DeleteFile {destination} ", StringComparison.Ordinal));
        Assert.Equal(TestFiles.Content(10, 2), File.ReadAllBytes(destination));
    }

    /// <summary>
    /// The half-made destination was marked for deletion (POSIX delete where Wine's volume reports it, else the plain
    /// disposition) by the last call before its handle closed, and never unmarked.
    /// </summary>
    private static void AssertMarkedThenClosed(RecordingWindowsSystemCalls kernel)
    {
        int mark = kernel.Calls.FindLastIndex(c => c.StartsWith("SetDeleteOnClose True => 0", StringComparison.Ordinal) || (c.StartsWith("SetDispositionEx ", StringComparison.Ordinal) && c.EndsWith("=> 0", StringComparison.Ordinal)));
        Assert.True(mark >= 0 && kernel.Calls[mark + 1].StartsWith("CloseHandle", StringComparison.Ordinal), string.Join("\n", kernel.Calls));
        Assert.DoesNotContain("SetDeleteOnClose False => 0", kernel.Calls);
    }

    private static ClonerTransfer Transfer(RecordingWindowsSystemCalls kernel, long chunkSize = WindowsBlockCloner.DefaultChunkSize) =>
        new(() => new WindowsBlockCloner(kernel.Seam, chunkSize), new EngineDiagnostics());
}
