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
    public void An_existing_destination_is_not_cloned_over_the_platform_copy_replaces_it()
    {
        // The cloner never deletes (only the task's rules do): it answers "the destination exists" and leaves
        // the file to .NET's File.Copy(overwrite). On macOS that call unlinks the destination and clones the
        // source into a new file (dotnet/runtime, FileSystem.TryCloneFile.OSX.cs: on EEXIST with overwrite it deletes, then clonefile), so a second hard link to the old
        // file keeps the old bytes there; on Linux, where these tests run, File.Copy writes in place. What is
        // asserted is what holds on both: no clonefile call, the reason, and the destination's new content.
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000, seed: 1);
        string destination = TestFiles.Write(Path.Combine(_directory, "kept.dll"), 10, seed: 2);
        var transfer = new ClonerTransfer(() => new MacCloneFileCloner(_calls), new EngineDiagnostics());

        TransferResult result = transfer.Transfer(source, destination, CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.DestinationKept), (result.Method, result.Reason));
        Assert.Empty(_calls.Clones);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
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
}
