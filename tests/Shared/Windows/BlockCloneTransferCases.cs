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
/// The Windows block-clone path end to end (ClonerTransfer → WindowsBlockCloner) over real files, with
/// kernel32 and ntdll simulated by <see cref="SimulatedWindowsSystemCalls"/>:
/// the class's own steps run for real, the kernel's answers are scripted.
/// </summary>
public abstract class BlockCloneTransferCases : IDisposable
{
    private const string VolumeName = @"\\?\Volume{33333333-0000-0000-0000-000000000003}\";
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-blockclone").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new();
    private readonly SimulatedVolume _volume;
    private readonly EngineDiagnostics _diagnostics = new();

    protected BlockCloneTransferCases()
    {
        _volume = _kernel.AddVolume(_directory + System.IO.Path.DirectorySeparatorChar, VolumeName);

        // Windows Server 2022, as on the CI job: no CopyFile question, whose copy (kept where CopyFile copies) would
        // take the first file of 64 KiB to 4 MiB away from CloneCopy's own clone. The tests of CopyFile's own clones
        // set a later build; CopyFileVerdictCases asks the question.
        _kernel.OsBuild = 20348;
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_clone_creates_a_new_destination_sparse_before_its_end_of_file_and_restores_the_source_sparseness_after()
    {
        string source = TestFiles.Write(Path(@"a.dll"), 10_000);
        string destination = Path(@"b.dll");

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(destination));
        Assert.Equal(
            new[] { $"CreateFile {destination} CreateNew", $"SetSparse {destination} True", $"SetEndOfFile {destination} 10000", $"DuplicateExtents {destination} 0 0 12288", $"SetSparse {destination} False", $"SetBasicInformation {destination} {File.GetLastWriteTimeUtc(source).ToFileTimeUtc()} {SettableAttributesOf(source):x}", $"CloseHandle {destination}" },
            _kernel.Calls.Where(c => c.Contains(destination, StringComparison.Ordinal) && !c.StartsWith("Get", StringComparison.Ordinal)));
        Assert.False(_kernel.IsSparse(destination));
    }

    [Fact]
    public void A_destination_made_sparse_first_needs_no_free_space_for_its_length()
    {
        _volume.FreeBytes = 4096; // far less than the file: only a clone fits
        string source = TestFiles.Write(Path("big.dll"), 1 << 20);

        TransferResult result = NewTransfer().Transfer(source, Path("copy.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path("copy.dll")));
    }

    [Fact]
    public void A_sparse_source_gives_a_destination_that_is_not_sparse_as_CopyFile_gives()
    {
        // CopyFile keeps sparseness only when asked (COPY_FILE_ENABLE_SPARSE_COPY, CopyFile2): MSBuild's Copy does not
        // ask, so its copy of a sparse file is not sparse. The clone needs a sparse destination while it clones ("If the
        // source file is sparse, the destination file must also be sparse", Block Cloning), then clears it as for any
        // source: the holes are allocated (MS-FSA 2.1.5.10.38), the shared clusters stay shared.
        string source = TestFiles.Write(Path("sparse.bin"), 70_000);
        _kernel.MarkSparse(source, allocatedBytes: 8192);

        TransferResult result = NewTransfer().Transfer(source, Path("copy.bin"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.False(_kernel.IsSparse(Path("copy.bin")));
        Assert.Contains($"SetSparse {Path("copy.bin")} False", _kernel.Calls);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path("copy.bin")));
    }

    [Fact]
    public void Only_the_cluster_size_is_asked_of_the_integrity_query_when_neither_the_source_nor_the_destination_folder_has_integrity_streams()
    {
        string source = TestFiles.Write(Path("a.dll"), 20_000);

        TransferResult result = NewTransfer().Transfer(source, Path("b.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(new[] { $"GetIntegrityInformation {source}" }, _kernel.CallsTo("GetIntegrityInformation")); // the volume's cluster size, once
        Assert.Empty(_kernel.CallsTo("SetIntegrityInformation"));
    }

    [Theory]
    [InlineData(4096)]
    [InlineData(65536)]
    public void The_cluster_size_comes_from_the_integrity_query_on_the_first_source_of_a_volume_never_from_GetDiskFreeSpace(int cluster)
    {
        // What reflink-copy does: FSCTL_GET_INTEGRITY_INFORMATION's ClusterSizeInBytes (MS-FSCC 2.3.20) on
        // the open source, a handle the clone has anyway; asked once per volume per build.
        (SimulatedWindowsSystemCalls kernel, string folder) = OwnVolume($"c{cluster}", cluster);
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(kernel), _diagnostics);
        string a = TestFiles.Write(System.IO.Path.Combine(folder, "a.dll"), 10_000, seed: 1);
        string b = TestFiles.Write(System.IO.Path.Combine(folder, "b.dll"), 10_000, seed: 2);

        TransferResult first = transfer.Transfer(a, a + ".copy", CancellationToken.None);
        TransferResult second = transfer.Transfer(b, b + ".copy", CancellationToken.None);

        Assert.Equal((TransferMethod.Cloned, TransferMethod.Cloned), (first.Method, second.Method));
        Assert.Equal(new[] { $"GetIntegrityInformation {a}" }, kernel.CallsTo("GetIntegrityInformation"));
        Assert.Empty(kernel.CallsTo("GetDiskFreeSpace"));
        Assert.Contains($"DuplicateExtents {b}.copy 0 0 {(10_000 + cluster - 1) / cluster * cluster}", kernel.Calls);
        Assert.Equal(File.ReadAllBytes(b), File.ReadAllBytes(b + ".copy"));
    }

    [Theory]
    [InlineData(512)]
    [InlineData(12288)]
    [InlineData(1L << 40)]
    public void An_implausible_cluster_size_from_the_integrity_query_is_not_used_and_the_mount_path_is_asked(long reported)
    {
        // ReFS clusters are 4 KiB or 64 KiB (reflink-copy accepts only those from this query); any other answer is taken
        // as no answer, and GetDiskFreeSpaceW (what the CopyOnWrite library uses) tells.
        string folder = Directory.CreateDirectory(Path($"odd{reported}")).FullName;
        var kernel = new SimulatedWindowsSystemCalls { OsBuild = 20348 };
        kernel.AddVolume(folder + System.IO.Path.DirectorySeparatorChar, $@"\\?\Volume{{{Guid.NewGuid()}}}\", clusterSize: 4096).IntegrityQueryClusterSize = reported;
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(kernel), _diagnostics);
        string a = TestFiles.Write(System.IO.Path.Combine(folder, "a.dll"), 10_000, seed: 1);

        TransferResult result = transfer.Transfer(a, a + ".copy", CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Single(kernel.CallsTo("GetDiskFreeSpace"));
        Assert.Contains($"DuplicateExtents {a}.copy 0 0 12288", kernel.Calls);
        Assert.Equal(File.ReadAllBytes(a), File.ReadAllBytes(a + ".copy"));
    }

    [Fact]
    public void Where_the_integrity_query_cannot_tell_the_cluster_size_it_is_asked_of_the_volume_s_mount_path_once()
    {
        // A volume that clones without integrity streams (none is known; the fallback is for one that answers the query
        // with an error): GetDiskFreeSpaceW on the mount point GetVolumePathNameW gave, a documented root form.
        (SimulatedWindowsSystemCalls kernel, string folder) = OwnVolume("fallback", 4096);
        kernel.Fault = (call, _) => call == "GetIntegrityInformation" ? Win32.ErrorInvalidFunction : 0;
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(kernel), _diagnostics);
        string a = TestFiles.Write(System.IO.Path.Combine(folder, "a.dll"), 10_000, seed: 1);
        string b = TestFiles.Write(System.IO.Path.Combine(folder, "b.dll"), 10_000, seed: 2);

        TransferResult first = transfer.Transfer(a, a + ".copy", CancellationToken.None);
        TransferResult second = transfer.Transfer(b, b + ".copy", CancellationToken.None);

        Assert.Equal((TransferMethod.Cloned, TransferMethod.Cloned), (first.Method, second.Method));
        Assert.Equal(new[] { $"GetDiskFreeSpace {folder}{System.IO.Path.DirectorySeparatorChar}" }, kernel.CallsTo("GetDiskFreeSpace"));
    }

    [Fact]
    public void A_source_with_integrity_streams_into_a_folder_without_is_cloned_with_its_setting_and_never_made_sparse()
    {
        // File Attribute Constants, FILE_ATTRIBUTE_INTEGRITY_STREAM: "If a file is copied the destination file will have
        // integrity set if either the source file or destination directory have integrity set." Block Cloning: source
        // and destination "must have the same Integrity Streams setting". The setting is given while the file is empty,
        // and an integrity stream cannot be sparse (ASSUMED A7).
        var checksums = new IntegrityInformation(ChecksumAlgorithm: Win32.ChecksumTypeCrc64, Flags: 0);
        string source = TestFiles.Write(Path("integrity.dll"), 20_000);
        _kernel.SetIntegrity(source, checksums);
        string destination = Path("copy.dll");

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(checksums, _kernel.IntegrityOf(destination));
        Assert.Empty(_kernel.CallsTo("SetSparse"));
        int setIntegrity = _kernel.Calls.IndexOf($"SetIntegrityInformation {destination} 2");
        Assert.True(setIntegrity >= 0 && setIntegrity < _kernel.Calls.IndexOf($"SetEndOfFile {destination} 20000"), string.Join("\n", _kernel.Calls));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
    }

    [Fact]
    public void A_folder_with_integrity_streams_and_a_source_without_is_left_to_CopyFile_whose_copy_gets_them()
    {
        // CopyFile's copy has integrity streams there (the folder's setting); a clone of a file without them cannot.
        Directory.CreateDirectory(Path("out"));
        _kernel.SetFolderIntegrity(Path("out"), new IntegrityInformation(Win32.ChecksumTypeCrc64, 0));
        string source = TestFiles.Write(Path("a.dll"), 20_000);

        TransferResult result = NewTransfer().Transfer(source, System.IO.Path.Combine(Path("out"), "a.dll"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.IntegrityStreamsDiffer), (result.Method, result.Reason));
        Assert.Empty(_kernel.CallsTo("DuplicateExtents"));
        Assert.DoesNotContain(_kernel.Calls, c => c.StartsWith("CreateFile", StringComparison.Ordinal) && c.Contains("CreateNew", StringComparison.Ordinal));
    }

    [Fact]
    public void A_source_with_integrity_streams_into_a_folder_with_them_is_cloned_with_no_integrity_call()
    {
        var checksums = new IntegrityInformation(Win32.ChecksumTypeCrc64, 0);
        Directory.CreateDirectory(Path("out"));
        _kernel.SetFolderIntegrity(Path("out"), checksums);
        string source = TestFiles.Write(Path("a.dll"), 20_000);
        _kernel.SetIntegrity(source, checksums);
        string destination = System.IO.Path.Combine(Path("out"), "a.dll");

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(checksums, _kernel.IntegrityOf(destination));
        Assert.Empty(_kernel.CallsTo("SetIntegrityInformation"));
        Assert.Empty(_kernel.CallsTo("SetSparse"));
    }

    [Fact]
    public void Disk_full_half_way_through_the_clone_removes_the_half_clone_and_leaves_the_last_word_to_File_Copy()
    {
        string source = TestFiles.Write(Path("a.dll"), 200_000);
        string destination = Path("b.dll");
        int duplicates = 0;
        _kernel.Fault = (call, _) => call == "DuplicateExtents" && ++duplicates == 2 ? Win32.ErrorDiskFull : 0;

        // The half-made clone is deleted; then File.Copy, which MSBuild's Copy calls, gets the same chance. On a
        // disk that is really full it fails with .NET's own exception; here the disk has room, so it copies.
        TransferResult result = NewTransfer(chunkSize: 64 * 1024).Transfer(source, destination, CancellationToken.None);

        AssertRemovedWhenClosed(destination);
        Assert.Equal(TransferMethod.Copied, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
    }

    [Fact]
    public void Cancellation_half_way_through_the_clone_leaves_no_destination()
    {
        string source = TestFiles.Write(Path("a.dll"), 200_000);
        string destination = Path("b.dll");
        using var cancellation = new CancellationTokenSource();
        _kernel.Fault = (call, _) =>
        {
            if (call == "DuplicateExtents")
            {
                cancellation.Cancel(); // the build is cancelled while the first chunk is being cloned
            }

            return 0;
        };

        Assert.ThrowsAny<OperationCanceledException>(() => NewTransfer(chunkSize: 64 * 1024).Transfer(source, destination, cancellation.Token));

        Assert.False(File.Exists(destination));
        Assert.Single(_kernel.CallsTo("DuplicateExtents"));
    }

    [Fact]
    public void A_half_made_clone_is_gone_after_cancellation_even_when_a_scanner_holds_it_and_deleting_by_name_fails()
    {
        string source = TestFiles.Write(Path("a.dll"), 200_000);
        string destination = Path("b.dll");
        using var cancellation = new CancellationTokenSource();
        _kernel.Fault = (call, _) =>
        {
            if (call == "DuplicateExtents")
            {
                cancellation.Cancel();
            }

            // An antivirus scanner has the new file open without FILE_SHARE_DELETE at the moment it is deleted by name.
            return call == "DeleteFile" ? Win32.ErrorSharingViolation : 0;
        };

        Assert.ThrowsAny<OperationCanceledException>(() => NewTransfer(chunkSize: 64 * 1024).Transfer(source, destination, cancellation.Token));

        Assert.False(File.Exists(destination), "a full-length, half-cloned file newer than its source was left behind");
    }

    [Fact]
    public void No_call_reaches_a_destination_handle_after_its_delete_mark()
    {
        // WDK FILE_DISPOSITION_INFORMATION: once a handle has marked its file for deletion, "the only legal operation
        // by such a caller is to close the open file handle". A clone that succeeds, one refused half-way and one
        // cancelled half-way must all keep to that.
        string source = TestFiles.Write(Path("a.dll"), 200_000);
        using var cancellation = new CancellationTokenSource();
        _kernel.Fault = (call, subject) =>
        {
            if (call == "DuplicateExtents" && subject == Path("cancelled.dll"))
            {
                cancellation.Cancel();
            }

            return call == "DuplicateExtents" && subject == Path("refused.dll") ? Win32.ErrorNotSupported : 0;
        };
        ClonerTransfer transfer = NewTransfer(chunkSize: 64 * 1024);

        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(source, Path("cloned.dll"), CancellationToken.None).Method);
        Assert.Equal(NotClonedReason.RefusedForThisFile, transfer.Transfer(source, Path("refused.dll"), CancellationToken.None).Reason);
        Assert.ThrowsAny<OperationCanceledException>(() => transfer.Transfer(source, Path("cancelled.dll"), cancellation.Token));

        Assert.Empty(_kernel.Violations);
        Assert.False(File.Exists(Path("cancelled.dll")));
        Assert.Equal(0, _kernel.OpenHandles);
    }

    [Fact]
    public void A_failed_clone_leaves_the_name_free_for_the_copy_while_a_scanner_holds_the_half_made_file()
    {
        // A file system filter (an antivirus scanner in kernel mode, which share modes do not stop) opens the new
        // destination while it is being cloned; the clone is then refused. The half-made file must not keep the
        // name "delete pending" for as long as the scanner holds it: File.Copy, which MSBuild's Copy would have
        // called on a free name, comes next.
        string source = TestFiles.Write(Path("a.dll"), 20_000);
        string destination = Path("b.dll");
        Microsoft.Win32.SafeHandles.SafeFileHandle? scanner = null;
        _kernel.Fault = (call, subject) =>
        {
            if (call == "DuplicateExtents" && subject == destination)
            {
                scanner = _kernel.OpenForeign(destination, Win32.GenericRead, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, ignoreShareAccess: true);
                return Win32.ErrorNotSupported;
            }

            return 0;
        };

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.RefusedForThisFile), (result.Method, result.Reason));
        Assert.NotNull(scanner);
        Assert.False(_kernel.IsDeletePending(destination), "the half-made file still holds the name: the copy that follows would meet access denied");
        Assert.Equal(0, _kernel.CreateFile(destination, Win32.GenericRead, Win32.FileShareRead, Win32.OpenExisting, Win32.FileAttributeNormal, out Microsoft.Win32.SafeHandles.SafeFileHandle reader));
        _kernel.CloseHandle(reader);
        _kernel.CloseHandle(scanner!);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
    }

    [Fact]
    public void Without_POSIX_delete_on_the_volume_the_half_made_file_is_marked_with_the_plain_disposition_as_its_last_call()
    {
        _volume.PosixUnlinkRename = false; // FILE_SUPPORTS_POSIX_UNLINK_RENAME not reported
        string source = TestFiles.Write(Path("a.dll"), 20_000);
        string destination = Path("b.dll");
        _kernel.Fault = (call, subject) => call == "DuplicateExtents" && subject == destination ? Win32.ErrorNotSupported : 0;

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal(NotClonedReason.RefusedForThisFile, result.Reason);
        AssertRemovedWhenClosed(destination);
        Assert.Contains($"SetDeleteOnClose {destination} True", _kernel.Calls);
        Assert.Empty(_kernel.CallsTo("SetDispositionEx"));
        Assert.Empty(_kernel.Violations);
    }

    [Theory]
    [InlineData("DuplicateExtents", 2, Win32.ErrorInvalidParameter)] // alignment refused half-way
    [InlineData("DuplicateExtents", 2, 55)] // ERROR_DEV_NOT_EXIST: the volume went away half-way
    [InlineData("SetIntegrityInformation", 1, Win32.ErrorInvalidParameter)] // integrity setting refused
    [InlineData("SetEndOfFile", 1, Win32.ErrorAccessDenied)]
    public void A_refusal_removes_the_partial_clone_copies_the_file_and_does_not_stop_the_next_clone(string call, int failingCall, int error)
    {
        string first = TestFiles.Write(Path("a.dll"), 200_000, seed: 1);
        string second = TestFiles.Write(Path("b.dll"), 200_000, seed: 2);
        _kernel.SetIntegrity(first, new IntegrityInformation(2, 0));
        _kernel.SetIntegrity(second, new IntegrityInformation(2, 0));
        int calls = 0;
        _kernel.Fault = (name, _) => name == call && ++calls == failingCall ? error : 0;
        ClonerTransfer transfer = NewTransfer(chunkSize: 64 * 1024);

        TransferResult refused = transfer.Transfer(first, Path("a.copy"), CancellationToken.None);
        TransferResult cloned = transfer.Transfer(second, Path("b.copy"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.RefusedForThisFile), (refused.Method, refused.Reason));
        Assert.Equal(File.ReadAllBytes(first), File.ReadAllBytes(Path("a.copy")));
        Assert.Equal(File.GetLastWriteTimeUtc(first), File.GetLastWriteTimeUtc(Path("a.copy")));
        AssertRemovedWhenClosed(Path("a.copy"));
        Assert.Equal(TransferMethod.Cloned, cloned.Method);
    }

    [Fact]
    public void At_the_link_limit_the_file_is_copied_and_the_next_clone_uses_the_copy_as_its_source()
    {
        string source = TestFiles.Write(Path("pkg.dll"), 8192);
        int duplicates = 0;
        _kernel.Fault = (call, _) => call == "DuplicateExtents" && ++duplicates == 1 ? Win32.ErrorBlockTooManyReferences : 0;
        ClonerTransfer transfer = NewTransfer();

        TransferResult limited = transfer.Transfer(source, Path("bin1.dll"), CancellationToken.None);
        TransferResult next = transfer.Transfer(source, Path("bin2.dll"), CancellationToken.None);

        Assert.Equal(NotClonedReason.LinkLimit, limited.Reason);
        Assert.Equal(TransferMethod.Cloned, next.Method);
        Assert.Contains($"CreateFile {Path("bin1.dll")} OpenExisting", _kernel.Calls); // re-seeded from the fresh copy
        Assert.True(_diagnostics.TryTake(out EngineDiagnostic diagnostic));
        Assert.Equal(EngineDiagnosticKind.LinkLimitReached, diagnostic.Kind);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path("bin2.dll")));
    }

    [Fact]
    public void A_reseed_copy_rewritten_with_the_same_size_and_timestamp_is_not_cloned_from()
    {
        string source = TestFiles.Write(Path("pkg.dll"), 8192, seed: 1);
        int duplicates = 0;
        _kernel.Fault = (call, _) => call == "DuplicateExtents" && ++duplicates == 1 ? Win32.ErrorBlockTooManyReferences : 0;
        ClonerTransfer transfer = NewTransfer();
        Assert.Equal(NotClonedReason.LinkLimit, transfer.Transfer(source, Path("bin1.dll"), CancellationToken.None).Reason);

        // A later step rewrites the fresh copy in place: other bytes, same length, same timestamp (a deterministic build).
        DateTime stamp = File.GetLastWriteTimeUtc(Path("bin1.dll"));
        File.WriteAllBytes(Path("bin1.dll"), TestFiles.Content(8192, seed: 7));
        File.SetLastWriteTimeUtc(Path("bin1.dll"), stamp);
        TransferResult next = transfer.Transfer(source, Path("bin2.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, next.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path("bin2.dll")));
    }

    [Fact]
    public void A_seed_rewritten_between_its_check_and_the_clone_is_not_cloned_from()
    {
        // Another node copies onto the seed's path (a deterministic build: other bytes, same length and time) just
        // after the seed was checked and before the clone reads it. The check and the clone must be one handle that
        // denies writers, or the clone carries bytes nobody checked, stamped with the source's time.
        string source = TestFiles.Write(Path("pkg.dll"), 8192, seed: 1);
        string seed = Path("bin1.dll");
        int duplicates = 0;
        bool armed = false, rewritten = false;
        _kernel.Fault = (call, subject) =>
        {
            if (armed && call == "CreateFile" && subject == seed && !rewritten)
            {
                rewritten = true;
                DateTime stamp = File.GetLastWriteTimeUtc(seed);
                File.WriteAllBytes(seed, TestFiles.Content(8192, seed: 7));
                File.SetLastWriteTimeUtc(seed, stamp);
            }

            return call == "DuplicateExtents" && ++duplicates == 1 ? Win32.ErrorBlockTooManyReferences : 0;
        };
        ClonerTransfer transfer = NewTransfer();
        Assert.Equal(NotClonedReason.LinkLimit, transfer.Transfer(source, seed, CancellationToken.None).Reason);

        armed = true; // the seed is opened for this clone: rewritten at that moment, before the clone reads it
        TransferResult next = transfer.Transfer(source, Path("bin2.dll"), CancellationToken.None);

        Assert.True(rewritten);
        Assert.Equal(TransferMethod.Cloned, next.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path("bin2.dll")));
    }

    [Fact]
    public void A_source_rewritten_with_the_same_size_and_time_is_not_replaced_by_its_old_seed()
    {
        string source = TestFiles.Write(Path("pkg.dll"), 8192, seed: 1);
        int duplicates = 0;
        _kernel.Fault = (call, _) => call == "DuplicateExtents" && ++duplicates == 1 ? Win32.ErrorBlockTooManyReferences : 0;
        ClonerTransfer transfer = NewTransfer();
        Assert.Equal(NotClonedReason.LinkLimit, transfer.Transfer(source, Path("bin1.dll"), CancellationToken.None).Reason);

        // The source itself is rewritten in place: other bytes, same length, same time. Only its change time moves.
        DateTime stamp = File.GetLastWriteTimeUtc(source);
        File.WriteAllBytes(source, TestFiles.Content(8192, seed: 8));
        File.SetLastWriteTimeUtc(source, stamp);
        TransferResult next = transfer.Transfer(source, Path("bin2.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, next.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path("bin2.dll")));
    }

    [Fact]
    public void At_the_reference_limit_the_fresh_copy_becomes_the_seed_and_takes_the_references_of_later_clones()
    {
        // The limit as ReFS counts it: every file mapping a block is one reference (here at most 3).
        _kernel.ReferenceLimit = 3;
        string source = TestFiles.Write(Path("pkg.dll"), 8192, seed: 1);
        ClonerTransfer transfer = NewTransfer();

        var results = Enumerable.Range(0, 5).Select(i => transfer.Transfer(source, Path($"bin{i}.dll"), CancellationToken.None)).ToList();

        Assert.Equal(new[] { TransferMethod.Cloned, TransferMethod.Cloned, TransferMethod.Copied, TransferMethod.Cloned, TransferMethod.Cloned }, results.Select(r => r.Method));
        Assert.Equal(NotClonedReason.LinkLimit, results[2].Reason);
        Assert.Equal(3, _kernel.ReferencesOf(source));
        Assert.Equal(3, _kernel.ReferencesOf(Path("bin2.dll"))); // the seed and its two clones
        Assert.All(Enumerable.Range(0, 5), i => Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path($"bin{i}.dll"))));
    }

    [Fact]
    public void Files_larger_than_4_GiB_are_cloned_in_cluster_aligned_chunks_each_under_4_GiB()
    {
        const long Length = (5L << 30) + 1;
        string source = Path("huge.bin");
        SparseHostFiles.Create(source, Length); // nothing written, nothing allocated on the host

        _kernel.CopyData = false;

        try
        {
            TransferResult result = NewTransfer().Transfer(source, Path("huge.copy"), CancellationToken.None);

            Assert.Equal(TransferMethod.Cloned, result.Method);
            var ranges = _kernel.CallsTo("DuplicateExtents").Select(c => c.Split(' ')).Select(p => (Offset: long.Parse(p[^3], System.Globalization.CultureInfo.InvariantCulture), Count: long.Parse(p[^1], System.Globalization.CultureInfo.InvariantCulture))).ToList();
            Assert.All(ranges, r => Assert.True(r.Count < 4L << 30 && r.Count % 4096 == 0, $"{r}"));
            Assert.Equal(ranges.Select(r => r.Offset), ranges.Select((r, i) => ranges.Take(i).Sum(x => x.Count)));
            Assert.Equal((Length + 4095) / 4096 * 4096, ranges.Sum(r => r.Count));
        }
        finally
        {
            File.Delete(source);
            File.Delete(Path("huge.copy"));
        }
    }

    [Fact]
    public void A_volume_that_cannot_be_queried_means_one_CLC002_diagnostic_a_copy_and_a_cached_verdict()
    {
        _kernel.Fault = (call, _) => call == "GetVolumeInformation" ? Win32.ErrorNotReady : 0;
        ClonerTransfer transfer = NewTransfer();

        for (int i = 0; i < 3; i++)
        {
            string source = TestFiles.Write(Path($"s{i}.dll"), 5000, seed: i);
            TransferResult result = transfer.Transfer(source, Path($"d{i}.dll"), CancellationToken.None);
            Assert.Equal((TransferMethod.Copied, NotClonedReason.CloningDisabled), (result.Method, result.Reason));
            Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path($"d{i}.dll")));
        }

        Assert.Single(_kernel.CallsTo("GetVolumeInformation"));
        Assert.True(_diagnostics.TryTake(out EngineDiagnostic diagnostic));
        Assert.Equal(EngineDiagnosticKind.VolumeProbeFailed, diagnostic.Kind);
        Assert.False(_diagnostics.TryTake(out _));
    }

    [Fact]
    public void An_FSCTL_the_volume_does_not_implement_is_remembered_for_the_volume()
    {
        // STATUS_INVALID_DEVICE_REQUEST (MS-FSA 2.1.5.10.4): the object store does not implement the FSCTL.
        _kernel.Fault = (call, _) => call == "DuplicateExtents" ? Win32.ErrorInvalidFunction : 0;
        ClonerTransfer transfer = NewTransfer();

        TransferResult first = transfer.Transfer(TestFiles.Write(Path("a.dll"), 5000), Path("a.copy"), CancellationToken.None);
        TransferResult second = transfer.Transfer(TestFiles.Write(Path("b.dll"), 5000, seed: 2), Path("b.copy"), CancellationToken.None);

        Assert.Equal(NotClonedReason.FilesystemCannotClone, first.Reason);
        Assert.Equal(NotClonedReason.FilesystemCannotClone, second.Reason);
        Assert.DoesNotContain($"CreateFile {Path("b.copy")} CreateNew", _kernel.Calls);
        Assert.False(File.Exists(Path("a.copy")) && new FileInfo(Path("a.copy")).Length != 5000);
    }

    [Fact]
    public void ERROR_NOT_SUPPORTED_from_the_clone_FSCTL_refuses_that_file_only()
    {
        // MS-FSCC 2.3.8: STATUS_NOT_SUPPORTED is per file (a sparse source into a non-sparse target, ranges that
        // overlap, a range beyond the source's allocation); the volume that cannot clone says STATUS_INVALID_DEVICE_REQUEST.
        string first = TestFiles.Write(Path("a.dll"), 5000, seed: 1);
        _kernel.Fault = (call, subject) => call == "DuplicateExtents" && subject == Path("a.copy") ? Win32.ErrorNotSupported : 0;
        ClonerTransfer transfer = NewTransfer();

        TransferResult refused = transfer.Transfer(first, Path("a.copy"), CancellationToken.None);
        TransferResult next = transfer.Transfer(TestFiles.Write(Path("b.dll"), 5000, seed: 2), Path("b.copy"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.RefusedForThisFile), (refused.Method, refused.Reason));
        Assert.Equal(File.ReadAllBytes(first), File.ReadAllBytes(Path("a.copy")));
        Assert.Equal(TransferMethod.Cloned, next.Method);
    }

    [Fact]
    public void A_clone_FSCTL_that_failed_without_an_error_code_condemns_neither_the_file_nor_the_volume()
    {
        // WindowsSystemCalls turns a failed call that left no last error into ERROR_GEN_FAILURE (a failure with
        // nothing known about it): the file is copied, and the next file on the volume is still cloned.
        string first = TestFiles.Write(Path("a.dll"), 5000, seed: 1);
        _kernel.Fault = (call, subject) => call == "DuplicateExtents" && subject == Path("a.copy") ? Win32.ErrorGenFailure : 0;
        ClonerTransfer transfer = NewTransfer();

        TransferResult failed = transfer.Transfer(first, Path("a.copy"), CancellationToken.None);
        TransferResult next = transfer.Transfer(TestFiles.Write(Path("b.dll"), 5000, seed: 2), Path("b.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Copied, failed.Method);
        Assert.NotEqual(NotClonedReason.FilesystemCannotClone, failed.Reason);
        Assert.Equal(File.ReadAllBytes(first), File.ReadAllBytes(Path("a.copy")));
        Assert.Equal(TransferMethod.Cloned, next.Method);
    }

    [Fact]
    public void Volume_verdicts_last_one_build_a_volume_that_can_clone_in_the_next_build_is_asked_again()
    {
        var kernel = new SimulatedWindowsSystemCalls();
        SimulatedVolume volume = kernel.AddVolume(_directory + System.IO.Path.DirectorySeparatorChar, VolumeName, "NTFS", blockRefcounting: false);
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(kernel), _diagnostics);
        object firstBuild = new(), secondBuild = new();

        transfer.UseVerdictsOf(firstBuild);
        Assert.Equal(NotClonedReason.FilesystemCannotClone, transfer.Transfer(TestFiles.Write(Path("a.dll"), 5000), Path("a.copy"), CancellationToken.None).Reason);
        volume.BlockRefcounting = true; // between builds, a Dev Drive is mounted where the NTFS folder was
        transfer.UseVerdictsOf(firstBuild);
        Assert.Equal(NotClonedReason.FilesystemCannotClone, transfer.Transfer(TestFiles.Write(Path("b.dll"), 5000), Path("b.copy"), CancellationToken.None).Reason);

        transfer.UseVerdictsOf(secondBuild);
        TransferResult nextBuild = transfer.Transfer(TestFiles.Write(Path("c.dll"), 5000), Path("c.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, nextBuild.Method);
    }

    [Theory]
    [InlineData("Zone.Identifier", 0u)] // the Mark of the Web: security metadata CopyFile carries over
    [InlineData(null, 64u)] // extended attributes (WSL metadata, for one)
    public void A_source_with_named_streams_or_extended_attributes_is_left_to_CopyFile_which_copies_them(string? stream, uint extendedAttributes)
    {
        // A block clone duplicates the extents of one data stream (MS-FSA 2.1.5.10.4: "An Open of a DataStream");
        // CopyFile copies every named stream and the extended attributes too.
        string source = TestFiles.Write(Path("downloaded.dll"), 5000);
        if (stream is not null)
        {
            _kernel.AddNamedStream(source, stream);
        }

        if (extendedAttributes != 0)
        {
            _kernel.AddExtendedAttribute(source, "USER.METADATA", (int)extendedAttributes);
        }

        TransferResult result = NewTransfer().Transfer(source, Path("b.dll"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.CarriesMoreThanData), (result.Method, result.Reason));
        Assert.Empty(_kernel.CallsTo("DuplicateExtents"));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path("b.dll")));
    }

    [Fact]
    public void On_a_store_without_named_streams_files_are_cloned_without_asking_for_streams()
    {
        // GetVolumeInformationW without FILE_NAMED_STREAMS: no file there has a named stream to lose, and the stream
        // query would answer STATUS_INVALID_INFO_CLASS (MS-FSA, FileStreamInformation).
        _volume.NamedStreams = false;
        string source = TestFiles.Write(Path("a.dll"), 5000);

        TransferResult result = NewTransfer().Transfer(source, Path("b.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Empty(_kernel.CallsTo("GetStreamNames"));
    }

    [Fact]
    public void A_stream_query_answered_with_STATUS_INVALID_INFO_CLASS_means_no_named_streams()
    {
        // A store that reports FILE_NAMED_STREAMS but does not enumerate them (ERROR_INVALID_PARAMETER).
        _kernel.Fault = (call, _) => call == "GetStreamNames" ? Win32.ErrorInvalidParameter : 0;
        string source = TestFiles.Write(Path("a.dll"), 5000);

        TransferResult result = NewTransfer().Transfer(source, Path("b.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
    }

    [Fact]
    public void Kernel_extended_attributes_do_not_keep_a_file_from_being_cloned()
    {
        // $KERNEL.* extended attributes (the code-integrity cache) can only be set from kernel mode ("An attempt to set
        // a Kernel EA from user mode is silently ignored", Kernel Extended Attributes): CopyFile cannot carry them
        // either, yet they count in EaSize.
        string source = TestFiles.Write(Path("signed.dll"), 5000);
        _kernel.AddExtendedAttribute(source, "$KERNEL.PURGE.ESBCACHE", 64);

        TransferResult result = NewTransfer().Transfer(source, Path("b.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
    }

    [Fact]
    public void An_extended_attribute_query_that_fails_is_a_refusal_for_this_file_not_a_claim_that_it_has_attributes()
    {
        string source = TestFiles.Write(Path("a.dll"), 5000);
        _kernel.AddExtendedAttribute(source, "USER.METADATA", 16);
        _kernel.Fault = (call, _) => call == "GetExtendedAttributeNames" ? Win32.ErrorAccessDenied : 0;

        TransferResult result = NewTransfer().Transfer(source, Path("b.dll"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.RefusedForThisFile), (result.Method, result.Reason));
    }

    [Fact(Skip = SymbolicLinks.NoneMadeHere, SkipWhen = nameof(SymbolicLinks.Unavailable), SkipType = typeof(SymbolicLinks))]
    [Trait("Needs", "SymbolicLinks")]
    public void A_source_reached_through_a_junction_into_another_volume_is_keyed_by_the_volume_it_is_on()
    {
        // C:\repo\packages is a junction (here a directory link) to D:\cache. GetVolumePathName answers with the
        // longest prefix that is a mount point and does not follow the junction: the source's folder must be
        // resolved to its final path first, or a pair on one volume looks like two volumes and vice versa.
        var kernel = new SimulatedWindowsSystemCalls();
        string repository = Directory.CreateDirectory(Path("c-drive")).FullName + System.IO.Path.DirectorySeparatorChar;
        string cache = Directory.CreateDirectory(Path("d-drive")).FullName + System.IO.Path.DirectorySeparatorChar;
        kernel.AddVolume(repository, @"\\?\Volume{cccccccc-0000-0000-0000-000000000001}\", "NTFS", blockRefcounting: false);
        kernel.AddVolume(cache, @"\\?\Volume{dddddddd-0000-0000-0000-000000000002}\", "ReFS");
        Directory.CreateDirectory(System.IO.Path.Combine(cache, "pkg"));
        Directory.CreateSymbolicLink(System.IO.Path.Combine(repository, "packages"), System.IO.Path.Combine(cache, "pkg"));
        string source = TestFiles.Write(System.IO.Path.Combine(repository, "packages", "lib.dll"), 5000);
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(kernel), _diagnostics);

        TransferResult result = transfer.Transfer(source, System.IO.Path.Combine(cache, "out.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
    }

    [Fact]
    public void An_existing_destination_is_never_deleted_by_the_cloner_the_platform_copy_writes_it()
    {
        string source = TestFiles.Write(Path("a.dll"), 5000, seed: 1);
        string destination = TestFiles.Write(Path("kept.dll"), 300, seed: 9);

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.DestinationKept), (result.Method, result.Reason));
        Assert.DoesNotContain($"DeleteFile {destination}", _kernel.Calls); // (the CopyFile probe deletes its own files)
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
    }

    [Fact]
    public void A_source_another_process_has_open_for_writing_is_left_to_CopyFile_and_the_reason_names_the_sharing_violation()
    {
        // A writer that lets others read and write (FILE_SHARE_READ | FILE_SHARE_WRITE), as a log or a build server
        // writing its output does. The clone opens its source denying writers (read and delete only, as the
        // CopyOnWrite library does), so the bytes it clones cannot change under it: here that open is a sharing
        // violation, and CopyFile, whose own share mode for its source is not documented, gets the file.
        string source = TestFiles.Write(Path("busy.dll"), 5000);
        Microsoft.Win32.SafeHandles.SafeFileHandle writer = _kernel.OpenForeign(source, Win32.GenericWrite, Win32.FileShareRead | Win32.FileShareWrite);

        TransferResult result = NewTransfer().Transfer(source, Path("b.dll"), CancellationToken.None);

        _kernel.CloseHandle(writer);
        Assert.Equal((TransferMethod.Copied, NotClonedReason.SourceSharingViolation), (result.Method, result.Reason));
        Assert.Contains("sharing violation", OutcomeText.Reason(result.Reason), StringComparison.Ordinal);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path("b.dll")));
        Assert.Empty(_kernel.CallsTo("DuplicateExtents"));
    }

    [Fact]
    public void A_sharing_violation_on_the_source_means_a_copy_of_this_file_only()
    {
        string locked = TestFiles.Write(Path("locked.dll"), 5000, seed: 1);
        string free = TestFiles.Write(Path("free.dll"), 5000, seed: 2);
        _kernel.Fault = (call, subject) => call == "CreateFile" && subject == locked ? Win32.ErrorSharingViolation : 0;
        ClonerTransfer transfer = NewTransfer();

        Assert.Equal(NotClonedReason.SourceSharingViolation, transfer.Transfer(locked, Path("d1.dll"), CancellationToken.None).Reason);
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(free, Path("d2.dll"), CancellationToken.None).Method);
    }

    [Fact]
    public void A_clone_gets_the_attributes_and_timestamp_File_Copy_gives()
    {
        string source = TestFiles.Write(Path("a.dll"), 5000);
        File.SetAttributes(source, FileAttributes.ReadOnly | FileAttributes.Archive);
        File.Copy(source, Path("by-file-copy.dll"));

        try
        {
            Assert.Equal(TransferMethod.Cloned, NewTransfer().Transfer(source, Path("cloned.dll"), CancellationToken.None).Method);

            Assert.Equal(File.GetAttributes(Path("by-file-copy.dll")), File.GetAttributes(Path("cloned.dll")));
            Assert.Equal(File.GetLastWriteTimeUtc(Path("by-file-copy.dll")), File.GetLastWriteTimeUtc(Path("cloned.dll")));
        }
        finally
        {
            foreach (string file in Directory.GetFiles(_directory))
            {
                File.SetAttributes(file, FileAttributes.Normal);
            }
        }
    }

    [Fact]
    public void The_times_and_attributes_are_set_on_the_open_destination_as_its_last_call()
    {
        // WDK FILE_BASIC_INFORMATION: a time of 0 is left as it is; MS-FSA 2.1.5.15.2: the attributes that may be set.
        // CopyFile keeps the last write time and the attributes (ASSUMED A6); set on the handle, nothing is opened
        // again by path after the clone.
        string source = TestFiles.Write(Path("a.dll"), 5000);
        string destination = Path("b.dll");

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        var onDestination = _kernel.Calls.Where(c => c.Contains($" {destination}", StringComparison.Ordinal)).ToList();
        Assert.StartsWith($"SetBasicInformation {destination} {File.GetLastWriteTimeUtc(source).ToFileTimeUtc()} ", onDestination[^2], StringComparison.Ordinal);
        Assert.Equal($"CloseHandle {destination}", onDestination[^1]);
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(destination));
    }

    [Fact]
    public void Where_CopyFile_clones_by_itself_a_clone_asked_for_in_place_of_a_link_is_still_made()
    {
        // CloneCopyClonesInsteadOfLinks: MSBuild would make a hard link into the package cache; CloneCopy makes a
        // clone instead, which only a clone allows. A file left to CopyFile because it clones there is not one.
        string source = TestFiles.Write(Path("pkg.dll"), 70_000);
        _kernel.OsBuild = 22631;
        _kernel.OsBuild = 22631;
        _volume.CopyFileClones = true;
        ClonerTransfer transfer = NewTransfer();
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(TestFiles.Write(Path("first.dll"), 70_000, seed: 2), Path("first.copy"), CancellationToken.None).Method); // CopyFile's clone: it clones here
        Assert.Equal(NotClonedReason.CopyFileClonesHere, transfer.Transfer(TestFiles.Write(Path("other.dll"), 70_000, seed: 3), Path("other.copy"), CancellationToken.None).Reason);

        bool cloned = transfer.TryCloneOnly(source, Path("linked.dll"), CancellationToken.None, out TransferResult result);

        Assert.True(cloned);
        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Single(_kernel.CallsTo("DuplicateExtents"));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path("linked.dll")));
    }

    [Fact]
    public void A_volume_that_cannot_clone_is_not_credited_to_CopyFile()
    {
        var kernel = new SimulatedWindowsSystemCalls();
        kernel.AddVolume(_directory + System.IO.Path.DirectorySeparatorChar, VolumeName, "NTFS", blockRefcounting: false).CopyFileClones = true;
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(kernel), _diagnostics);

        TransferResult result = transfer.Transfer(TestFiles.Write(Path("a.dll"), 5000), Path("b.dll"), CancellationToken.None);

        Assert.Equal(NotClonedReason.FilesystemCannotClone, result.Reason);
    }

    [Fact]
    public void Through_the_task_the_summary_says_CopyFile_clones_rather_than_claiming_a_clone()
    {
        // The first large file finds out that CopyFile clones (and is CopyFile's clone); the next is left to CopyFile.
        _kernel.OsBuild = 22631;
        _volume.CopyFileClones = true;
        string first = TestFiles.Write(Path("a.dll"), 70_000, seed: 1);
        string second = TestFiles.Write(Path("b.dll"), 70_000, seed: 2);
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(first), new TaskItem(second)],
            DestinationFolder = new TaskItem(Path("out")),
            Transfer = NewTransfer(),
            Diagnostics = _diagnostics,
        };

        Assert.True(task.Execute(), engine.Describe());

        string summary = Task.TaskRunner.Summary(engine);
        Assert.Contains("Windows' CopyFile clones here itself: 1", summary);
        Assert.StartsWith("CloneCopy: 1 file cloned", summary, StringComparison.Ordinal);
        Assert.Contains(engine.Messages, m => m.Importance == MessageImportance.Low && m.Message!.Contains("Windows' CopyFile clones here itself", StringComparison.Ordinal));
    }

    /// <summary>A kernel of its own with one ReFS volume mounted at a new folder of this test's directory.</summary>
    private (SimulatedWindowsSystemCalls Kernel, string Folder) OwnVolume(string name, long clusterSize)
    {
        string folder = Directory.CreateDirectory(Path(name)).FullName;
        var kernel = new SimulatedWindowsSystemCalls { OsBuild = 20348 };
        kernel.AddVolume(folder + System.IO.Path.DirectorySeparatorChar, $@"\\?\Volume{{{Guid.NewGuid()}}}\", clusterSize: clusterSize);
        return (kernel, folder);
    }

    private ClonerTransfer NewTransfer(long chunkSize = WindowsBlockCloner.DefaultChunkSize) =>
        new(() => new WindowsBlockCloner(_kernel, chunkSize), _diagnostics);

    /// <summary>
    /// The half-made clone was marked for deletion by its last call before its handle closed (POSIX delete where the
    /// volume has it, else the plain disposition), and never unmarked: closing the handle removed it.
    /// </summary>
    private void AssertRemovedWhenClosed(string destination)
    {
        var onDestination = _kernel.Calls.Where(c => c.Contains($" {destination}", StringComparison.Ordinal) && !c.StartsWith("CreateFile", StringComparison.Ordinal) && !c.StartsWith("CopyFile", StringComparison.Ordinal)).ToList();
        int close = onDestination.IndexOf($"CloseHandle {destination}");
        Assert.True(close > 0, string.Join("\n", onDestination));
        Assert.Matches(@"^(SetDispositionEx \S+ 13|SetDeleteOnClose \S+ True)$", onDestination[close - 1]);
        Assert.DoesNotContain($"SetDeleteOnClose {destination} False", _kernel.Calls);
        Assert.Empty(_kernel.Violations);
    }

    /// <summary>What the clone gives the destination: the source's settable attributes, FILE_ATTRIBUTE_NORMAL for none (Linux has none; Wine sets the archive bit).</summary>
    private static uint SettableAttributesOf(string file)
    {
        uint settable = (uint)File.GetAttributes(file) & Win32.ValidSetAttributes;
        return settable == 0 ? Win32.FileAttributeNormal : settable;
    }

    private string Path(string name) => System.IO.Path.Combine(_directory, name);
}
