using System.IO;
using System.Linq;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// Which volume a Windows path is on, and what that volume can do, decided through a scripted kernel32
/// (<see cref="SimulatedWindowsSystemCalls"/>; paths here are only strings, so this runs on Linux and under Wine).
/// </summary>
public abstract class WindowsVolumesCases
{
    private const string RefsGuid = @"\\?\Volume{11111111-0000-0000-0000-000000000001}\";
    private const string NtfsGuid = @"\\?\Volume{22222222-0000-0000-0000-000000000002}\";
    private readonly SimulatedWindowsSystemCalls _kernel = new();

    [Fact]
    public void A_ReFS_volume_mounted_in_a_folder_of_an_NTFS_drive_is_judged_by_itself_not_by_the_drive_letter()
    {
        _kernel.AddVolume(@"C:\", NtfsGuid, "NTFS", blockRefcounting: false);
        _kernel.AddVolume(@"C:\dev\", RefsGuid);
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        Assert.Equal(RefsGuid, cloner.VolumeOf(@"C:\dev\repo\bin\a.dll"));
        Assert.Equal(NotClonedReason.None, cloner.ProbeVolumes(@"C:\dev\repo\obj\a.dll", @"C:\dev\repo\bin\a.dll"));
        Assert.Equal(NotClonedReason.FilesystemCannotClone, cloner.ProbeVolumes(@"C:\src\a.dll", @"C:\out\a.dll"));
        Assert.Equal(NotClonedReason.DifferentVolumes, cloner.ProbeVolumes(@"C:\src\a.dll", @"C:\dev\a.dll"));
    }

    [Fact]
    public void An_NTFS_volume_mounted_inside_a_ReFS_drive_is_never_tried()
    {
        _kernel.AddVolume(@"D:\", RefsGuid);
        _kernel.AddVolume(@"D:\ntfs\", NtfsGuid, "NTFS", blockRefcounting: false);
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        Assert.Equal(NotClonedReason.FilesystemCannotClone, cloner.ProbeVolumes(@"D:\ntfs\obj\a.dll", @"D:\ntfs\bin\a.dll"));
        Assert.Equal(NotClonedReason.DifferentVolumes, cloner.ProbeVolumes(@"D:\ntfs\obj\a.dll", @"D:\repo\bin\a.dll"));
        Assert.Equal(NotClonedReason.None, cloner.ProbeVolumes(@"D:\repo\obj\a.dll", @"D:\repo\bin\a.dll"));
    }

    [Fact]
    public void A_subst_drive_is_the_volume_of_the_folder_it_stands_for()
    {
        _kernel.AddVolume(@"C:\", RefsGuid);
        _kernel.AddSubst("S:", @"C:\work");
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        Assert.Equal(RefsGuid, cloner.VolumeOf(@"S:\src\a.dll"));
        Assert.Equal(NotClonedReason.None, cloner.ProbeVolumes(@"S:\src\a.dll", @"C:\work\bin\a.dll"));
        Assert.Contains(@"GetVolumePathName C:\work\src\", _kernel.Calls);
    }

    [Fact]
    public void A_long_path_prefix_names_the_same_volume_even_where_the_mount_point_query_refuses_it()
    {
        _kernel.AddVolume(@"C:\", RefsGuid);
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        Assert.Equal(cloner.VolumeOf(@"C:\repo\a.dll"), cloner.VolumeOf(@"\\?\C:\repo\bin\a.dll"));
        Assert.Equal(NotClonedReason.None, cloner.ProbeVolumes(@"\\?\C:\repo\obj\a.dll", @"C:\repo\bin\a.dll"));
    }

    [Fact]
    public void A_network_share_without_a_volume_GUID_is_named_by_its_path_and_asked_like_any_volume()
    {
        _kernel.AddVolume(@"\\server\share\", name: null, "NTFS", blockRefcounting: false);
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        Assert.Equal(@"\\SERVER\SHARE\", cloner.VolumeOf(@"\\server\share\bin\a.dll"));
        Assert.Equal(NotClonedReason.FilesystemCannotClone, cloner.ProbeVolumes(@"\\server\share\obj\a.dll", @"\\server\share\bin\a.dll"));
    }

    [Fact]
    public void A_path_no_volume_answers_for_gets_a_key_without_throwing_and_its_probe_throws_an_IOException()
    {
        _kernel.Fault = (call, subject) => call == "GetVolumePathName" && subject.StartsWith(@"\\", System.StringComparison.Ordinal) ? Win32.ErrorInvalidName : 0;
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        string key = cloner.VolumeOf(@"\\unreachable\share\a.dll");

        Assert.StartsWith(WindowsVolumes.UnresolvedPrefix, key);
        var error = Assert.Throws<IOException>(() => cloner.ProbeVolumes(@"\\unreachable\share\a.dll", @"\\unreachable\share\b.dll"));
        Assert.Contains(@"\\unreachable\share\", error.Message);
    }

    [Fact]
    public void No_volume_is_asked_its_cluster_size_through_GetDiskFreeSpace_on_its_GUID_root()
    {
        // GetDiskFreeSpaceW documents drive and UNC roots, not \\?\Volume{GUID}\: the cluster size
        // comes from the clone's own source handle (FSCTL_GET_INTEGRITY_INFORMATION), so probing a volume asks nothing
        // of it, and a volume whose GetDiskFreeSpace cannot answer still clones.
        _kernel.AddVolume(@"C:\", NtfsGuid, "NTFS", blockRefcounting: false);
        _kernel.AddVolume(@"D:\", RefsGuid);
        _kernel.Fault = (call, _) => call == "GetDiskFreeSpace" ? Win32.ErrorNotReady : 0;
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        Assert.Equal(NotClonedReason.FilesystemCannotClone, cloner.ProbeVolumes(@"C:\a", @"C:\b"));
        Assert.Equal(NotClonedReason.None, cloner.ProbeVolumes(@"D:\a", @"D:\b"));
        Assert.Empty(_kernel.CallsTo("GetDiskFreeSpace"));
    }

    [Fact]
    public void A_volume_query_that_fails_is_an_IOException_naming_the_volume()
    {
        _kernel.AddVolume(@"E:\", RefsGuid);
        _kernel.Fault = (call, _) => call == "GetVolumeInformation" ? Win32.ErrorNotReady : 0; // a vanished or locked volume
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        var error = Assert.Throws<IOException>(() => cloner.ProbeVolumes(@"E:\a", @"E:\b"));
        Assert.Contains($@"E:\ ({RefsGuid})", error.Message);
        Assert.Equal(Win32.ErrorNotReady, Win32.ErrorOf(error.HResult));
    }

    [Fact]
    public void On_a_machine_whose_fixed_drives_cannot_clone_no_folder_is_opened()
    {
        // Junctions are followed (the folder opened for its final path) only where a junction could lead to a volume
        // that clones: on an NTFS-only machine or CI agent, every folder is keyed as written, without an open.
        _kernel.AddVolume(@"C:\", NtfsGuid, "NTFS", blockRefcounting: false);
        _kernel.AddVolume(@"D:\", @"\\?\Volume{77777777-0000-0000-0000-000000000007}\", "NTFS", blockRefcounting: false);
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        Assert.Equal(NotClonedReason.FilesystemCannotClone, cloner.ProbeVolumes(@"C:\repo\obj\a.dll", @"C:\repo\bin\a.dll"));

        Assert.Empty(_kernel.CallsTo("CreateFile"));
    }

    [Fact]
    public void Where_a_fixed_drive_can_clone_folders_are_opened_to_follow_junctions_and_the_drives_are_asked_once()
    {
        _kernel.AddVolume(@"C:\", NtfsGuid, "NTFS", blockRefcounting: false);
        _kernel.AddVolume(@"D:\", RefsGuid);
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        Assert.Equal(NotClonedReason.FilesystemCannotClone, cloner.ProbeVolumes(@"C:\repo\obj\a.dll", @"C:\repo\bin\a.dll"));
        Assert.Equal(NotClonedReason.FilesystemCannotClone, cloner.ProbeVolumes(@"C:\repo\obj\b.dll", @"C:\other\b.dll"));

        Assert.Equal(3, _kernel.CallsTo("CreateFile").Count()); // C:\repo\obj\, C:\repo\bin\, C:\other\
        Assert.Single(_kernel.CallsTo("GetLogicalDrives"));
    }

    [Fact]
    public void Volumes_are_resolved_once_per_directory_and_queried_once_per_volume()
    {
        _kernel.AddVolume(@"C:\", RefsGuid);
        WindowsBlockCloner cloner = new WindowsBlockCloner(_kernel);

        for (int i = 0; i < 20; i++)
        {
            Assert.Equal(NotClonedReason.None, cloner.ProbeVolumes($@"C:\repo\obj\f{i}.dll", $@"C:\repo\bin\f{i}.dll"));
        }

        Assert.Equal(2, _kernel.CallsTo("GetVolumePathName").Count());
        Assert.Single(_kernel.CallsTo("GetVolumeInformation"), c => c.Contains(RefsGuid, System.StringComparison.Ordinal));
    }
}
