using System;
using System.IO;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.MacOS;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.MacOS;

/// <summary>
/// The macOS clonefile path's decisions (volumes by st_dev, never deleting a destination, CLONE_ACL
/// retry, errno classification) through ClonerTransfer, with the system calls modelled over real files
/// (<see cref="StatBackedDarwinCalls"/>). macOS itself is not among this project's machines.
/// </summary>
public abstract class MacCloneFileClonerCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-mac").FullName;
    private readonly StatBackedDarwinCalls _calls = new();

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void Volumes_are_keyed_by_device_not_by_path_prefix()
    {
        string nix = Directory.CreateDirectory(Path.Combine(_directory, "nix")).FullName;
        _calls.MountDevice(nix, 99);
        var cloner = new MacCloneFileCloner(_calls);

        Assert.Equal("dev:99", cloner.VolumeOf(Path.Combine(nix, "store", "a.dylib")));
        Assert.NotEqual(cloner.VolumeOf(Path.Combine(nix, "a")), cloner.VolumeOf(Path.Combine(_directory, "a")));
        Assert.Equal(NotClonedReason.DifferentVolumes, cloner.ProbeVolumes(Path.Combine(nix, "a"), Path.Combine(_directory, "a")));
    }

    [Fact]
    public void ENOTSUP_from_another_volume_mounted_under_root_does_not_stop_clones_on_the_boot_volume()
    {
        string nix = Directory.CreateDirectory(Path.Combine(_directory, "nix")).FullName;
        string users = Directory.CreateDirectory(Path.Combine(_directory, "Users")).FullName;
        _calls.MountDevice(nix, 99);
        _calls.CloneScript = (source, _, _) => source.StartsWith(nix, StringComparison.Ordinal) ? MacCloneErrors.ENOTSUP : 0;
        var transfer = new ClonerTransfer(() => new MacCloneFileCloner(_calls), new EngineDiagnostics());

        TransferResult onNix = transfer.Transfer(TestFiles.Write(Path.Combine(nix, "a.dylib"), 1000), Path.Combine(nix, "b.dylib"), CancellationToken.None);
        TransferResult onBoot = transfer.Transfer(TestFiles.Write(Path.Combine(users, "a.dll"), 1000), Path.Combine(users, "b.dll"), CancellationToken.None);

        Assert.Equal(NotClonedReason.FilesystemCannotClone, onNix.Reason);
        Assert.Equal(TransferMethod.Cloned, onBoot.Method);
    }

    [Fact]
    public void A_destination_MSBuilds_rules_kept_is_replaced_by_a_clone_as_File_Copy_replaces_it_on_macOS_and_counts_as_cloned()
    {
        // With MSBUILDCOPYWITHOUTDELETE=1 MSBuild's rules keep the destination and File.Copy(overwrite)
        // writes it. On macOS that call locks the destination, unlinks it and clonefiles the source in its place
        // (dotnet/runtime, FileSystem.TryCloneFile.OSX.cs): the file was cloned, yet CloneCopy counted it as copied and
        // CloneCopyRequireClones raised CLC005. The cloner now takes those steps itself and knows it cloned. As with
        // .NET on macOS, a second hard link to the old file keeps the old bytes (the name gets a new file).
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000, seed: 1);
        string destination = TestFiles.Write(Path.Combine(_directory, "kept.dll"), 10, seed: 2);
        string otherLink = Path.Combine(_directory, "other-link.dll");
        FileSystemOps.HardLink(otherLink, destination);
        var transfer = new ClonerTransfer(() => new MacCloneFileCloner(_calls), new EngineDiagnostics());

        TransferResult result = transfer.Transfer(source, destination, CancellationToken.None);

        Assert.Equal((TransferMethod.Cloned, NotClonedReason.None), (result.Method, result.Reason));
        Assert.Equal([(source, destination, 4u)], _calls.Clones);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        Assert.Equal(10, new FileInfo(otherLink).Length);
    }

    [Fact]
    public void A_kept_destination_on_another_device_is_left_to_File_Copy_which_copies_it_there_too()
    {
        string other = Directory.CreateDirectory(Path.Combine(_directory, "other")).FullName;
        _calls.MountDevice(other, 99);
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000, seed: 1);
        string destination = TestFiles.Write(Path.Combine(other, "kept.dll"), 10, seed: 2);
        var cloner = new MacCloneFileCloner(_calls);

        CloneAttempt attempt = cloner.Clone(source, destination, CancellationToken.None);

        Assert.Equal(NotClonedReason.DestinationKept, attempt.Reason);
        Assert.Empty(_calls.Clones);
        Assert.Equal(10, new FileInfo(destination).Length);
    }

    [Fact]
    public void A_kept_destination_another_process_holds_without_sharing_is_left_to_File_Copy_and_not_deleted()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000, seed: 1);
        string destination = TestFiles.Write(Path.Combine(_directory, "kept.dll"), 10, seed: 2);
        var cloner = new MacCloneFileCloner(_calls);

        CloneAttempt attempt;
        using (File.Open(destination, FileMode.Open, FileAccess.ReadWrite, FileShare.None))
        {
            attempt = cloner.Clone(source, destination, CancellationToken.None);
        }

        Assert.Equal(NotClonedReason.DestinationKept, attempt.Reason);
        Assert.Empty(_calls.Clones);
        Assert.Equal(10, new FileInfo(destination).Length);
    }

    [Fact]
    public void A_volume_that_rejects_CLONE_ACL_is_asked_again_without_it()
    {
        _calls.CloneScript = (_, _, flags) => flags != 0 ? MacCloneErrors.EINVAL : 0;
        var cloner = new MacCloneFileCloner(_calls);
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000);

        Assert.Equal(CloneAttemptKind.Cloned, cloner.Clone(source, Path.Combine(_directory, "b.dll"), CancellationToken.None).Kind);
        Assert.Equal(new uint[] { 4, 0 }, _calls.Clones.ConvertAll(c => c.Flags));
    }

    [Fact]
    public void A_destination_that_appears_between_the_look_and_the_clone_is_left_to_the_platform_copy()
    {
        _calls.CloneScript = (_, _, _) => MacCloneErrors.EEXIST;
        var cloner = new MacCloneFileCloner(_calls);

        CloneAttempt attempt = cloner.Clone(TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000), Path.Combine(_directory, "b.dll"), CancellationToken.None);

        Assert.Equal((CloneAttemptKind.NotNow, NotClonedReason.DestinationKept), (attempt.Kind, attempt.Reason));
    }

    [Fact]
    public void No_space_is_a_real_error_not_a_fallback()
    {
        _calls.CloneScript = (_, _, _) => MacCloneErrors.ENOSPC;
        var cloner = new MacCloneFileCloner(_calls);

        Assert.Throws<IOException>(() => cloner.Clone(TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000), Path.Combine(_directory, "b.dll"), CancellationToken.None));
    }

    [Fact]
    public void A_clone_keeps_the_source_timestamp_as_clonefile_does()
    {
        var transfer = new ClonerTransfer(() => new MacCloneFileCloner(_calls), new EngineDiagnostics());
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000);

        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(source, Path.Combine(_directory, "b.dll"), CancellationToken.None).Method);
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(Path.Combine(_directory, "b.dll")));
    }

    [Fact]
    public void A_wrong_clone_of_a_0444_source_is_removed_and_written_again_by_a_plain_copy_with_the_source_s_mode()
    {
        // clonefile gives the clone the source's mode: a 0444 clone cannot be opened for writing, so File.Copy over it
        // (which also clones again on macOS) failed where MSBuild's Copy passes. The clone is unlinked (no write access
        // to the file needed) and the file written again by the process, with the source's mode and time.
        string source = TestFiles.Write(Path.Combine(_directory, "ro.dll"), 70_000, seed: 3, mode: UnixFileMode.UserRead | UnixFileMode.GroupRead | UnixFileMode.OtherRead);
        string destination = Path.Combine(_directory, "ro.copy");
        var diagnostics = new EngineDiagnostics();
        var transfer = new ClonerTransfer(() => new MacCloneFileCloner(_calls), diagnostics, unixModes: !OperatingSystem.IsWindows()); // the wine lane runs this too
        string wrongClone = Path.Combine(_directory, "the-wrong-clone");
        transfer.Verifier.AfterCloneForTests = (handle, path) =>
        {
            RandomAccess.Write(handle, new byte[] { 0xFF, 0xFF }, 10);
            FileSystemOps.HardLink(wrongClone, path); // keeps the clone's own file, to tell removal from writing over it
        };

        TransferResult result = transfer.Transfer(source, destination, CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (result.Method, result.Reason));
        Assert.NotEqual(File.ReadAllBytes(source), File.ReadAllBytes(wrongClone)); // the clone was removed, not written over
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        if (!OperatingSystem.IsWindows())
        {
            Assert.Equal(File.GetUnixFileMode(source), File.GetUnixFileMode(destination));
        }

        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(destination));
        Assert.Single(_calls.Clones);
        Assert.True(diagnostics.TryTake(out EngineDiagnostic said));
        Assert.Equal(EngineDiagnosticKind.CloneReadBackDiffered, said.Kind);
    }

    /// <summary>
    /// The plain copy that replaces a clone found wrong (CLC008) on macOS, made by the macOS platform's own transfer (the one
    /// PlatformFactory makes there, over the Darwin calls): an executable written again without its execute bits would no
    /// longer run (an apphost, a script), where MSBuild's Copy, whose File.Copy carries the mode, leaves one that runs.
    /// </summary>
    [Theory]
    [Trait("Needs", "UnixFileModes")] // the macOS platform's transfer reads and gives modes: not under Wine
    [System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
    [InlineData(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute | UnixFileMode.GroupRead | UnixFileMode.GroupExecute | UnixFileMode.OtherRead | UnixFileMode.OtherExecute)] // 0755: an apphost
    [InlineData(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute)] // 0700: a script for its owner alone
    public void The_macOS_platform_writes_a_wrong_clone_again_with_the_source_s_mode_so_an_executable_still_runs(UnixFileMode mode)
    {
        string source = TestFiles.Write(Path.Combine(_directory, "App"), 70_000, seed: 12, mode: mode);
        string destination = Path.Combine(_directory, "App.copy");
        _calls.AfterCloneMade = clone =>
        {
            using var handle = File.OpenHandle(clone, FileMode.Open, FileAccess.Write);
            RandomAccess.Write(handle, new byte[] { 0xFF, 0xFF }, 10);
        };
        var diagnostics = new EngineDiagnostics();
        var platform = new MacOSPlatform(diagnostics, _calls);

        TransferResult result = platform.Transfer.Transfer(source, destination, CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (result.Method, result.Reason));
        Assert.True(diagnostics.TryTake(out EngineDiagnostic said));
        Assert.Equal(EngineDiagnosticKind.CloneReadBackDiffered, said.Kind);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(destination));
        Assert.Equal(mode, File.GetUnixFileMode(destination));
    }

    [Fact]
    public void A_source_another_process_writes_between_the_clone_and_its_read_back_raises_no_CLC008_and_the_volume_still_clones()
    {
        // clonefile gives no handle, so the read-back opens the source again by path: a writer meanwhile makes the clone
        // differ from what the source now holds. That says nothing of the volume: no CLC008, nothing condemned; the file
        // is copied as after any one-file refusal, with what the source holds now.
        string source = TestFiles.Write(Path.Combine(_directory, "busy.dll"), 70_000, seed: 4);
        string destination = Path.Combine(_directory, "busy.copy");
        var diagnostics = new EngineDiagnostics();
        var transfer = new ClonerTransfer(() => new MacCloneFileCloner(_calls), diagnostics, unixModes: !OperatingSystem.IsWindows());
        byte[] rewritten = TestFiles.Content(70_000, seed: 5);
        transfer.Verifier.AfterCloneForTests = (_, _) =>
        {
            File.WriteAllBytes(source, rewritten);
            File.SetLastWriteTimeUtc(source, DateTime.UtcNow.AddMinutes(5));
        };

        TransferResult result = transfer.Transfer(source, destination, CancellationToken.None);
        transfer.Verifier.AfterCloneForTests = null;
        TransferResult next = transfer.Transfer(TestFiles.Write(Path.Combine(_directory, "c.dll"), 70_000, seed: 6), Path.Combine(_directory, "c.copy"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.RefusedForThisFile), (result.Method, result.Reason));
        Assert.Equal(rewritten, File.ReadAllBytes(destination));
        Assert.False(diagnostics.TryTake(out _)); // no CLC008
        Assert.Equal(TransferMethod.Cloned, next.Method);
    }

    [Theory]
    [InlineData(MacCloneErrors.EEXIST)]
    [InlineData(MacCloneErrors.EACCES)]
    public void Concurrent_copies_to_one_destination_leave_that_file_to_File_Copy_and_the_volume_still_clones(int errno)
    {
        // dotnet/msbuild #13463: two copies to one destination at once, and clonefile answers EEXIST (the other made it
        // first) or EACCES (it holds it). That is a concurrent writer, MSBuild's retry case (its Copy now retries EACCES
        // off Windows: CopyRetries), never "the volume cannot clone": the file goes to File.Copy, as MSBuild's Copy
        // calls it, whose own exception reaches the retries if it fails too; the next file on the volume is cloned.
        string destination = Path.Combine(_directory, "shared.dll");
        _calls.CloneScript = (_, target, _) =>
        {
            if (target != destination)
            {
                return 0;
            }

            TestFiles.Write(destination, 500, seed: 9); // the other copy, meanwhile
            return errno;
        };
        var transfer = new ClonerTransfer(() => new MacCloneFileCloner(_calls), new EngineDiagnostics());
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000, seed: 1);

        TransferResult contended = transfer.Transfer(source, destination, CancellationToken.None);
        TransferResult next = transfer.Transfer(TestFiles.Write(Path.Combine(_directory, "b.dll"), 1000, seed: 2), Path.Combine(_directory, "b.copy"), CancellationToken.None);

        Assert.Equal(TransferMethod.Copied, contended.Method);
        Assert.Equal(errno == MacCloneErrors.EEXIST ? NotClonedReason.DestinationKept : NotClonedReason.RefusedForThisFile, contended.Reason);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        Assert.Equal(TransferMethod.Cloned, next.Method);
    }
}
