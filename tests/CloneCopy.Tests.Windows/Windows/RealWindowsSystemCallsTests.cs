using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The real kernel32 P/Invoke implementation under Wine: volume resolution, the probe that finds Wine's
/// NTFS cannot block-clone, the fallback through ClonerTransfer with its verdict cache, links, identities.
/// Wine's Win32 is not Windows: these prove the declarations, marshalling and decisions against a real
/// Win32 layer; they cannot show a real block clone.
/// </summary>
// Wine's answers, not Windows': left out where the Windows lane runs natively (.ci/windows-steps.yml).
[Trait("Needs", "Wine")]
public sealed class RealWindowsSystemCallsTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-kernel32").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_path_resolves_to_its_volume_GUID_and_its_long_path_form_to_the_same_volume()
    {
        var volumes = new WindowsVolumes(WindowsSystemCalls.Instance);
        string file = Path.Combine(_directory, "a.dll");

        string key = volumes.KeyOf(file);

        Assert.StartsWith(@"\\?\Volume{", key);
        Assert.Equal(key, volumes.KeyOf(@"\\?\" + file)); // Wine refuses \\?\C:\ as a mount point: asked again as C:\
        VolumeCapability capability = volumes.CapabilityOf(key);
        Assert.False(capability.CanBlockClone);
        Assert.Equal("NTFS", capability.FileSystem);
    }

    [Fact]
    public void A_share_Wine_cannot_resolve_and_a_drive_that_does_not_exist_get_keys_and_their_probes_fail_with_IOException()
    {
        WindowsBlockCloner cloner = new WindowsBlockCloner(WindowsSystemCalls.Instance);

        foreach (string path in new[] { @"\\server\share\bin\a.dll", @"Q:\bin\a.dll" })
        {
            Assert.StartsWith(WindowsVolumes.UnresolvedPrefix, cloner.VolumeOf(path));
            Assert.Throws<IOException>(() => cloner.ProbeVolumes(path, path + ".copy"));
        }
    }

    [Fact]
    public void Wine_NTFS_cannot_block_clone_so_files_are_copied_and_the_volume_is_asked_once()
    {
        var kernel = new RecordingWindowsSystemCalls();
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(kernel.Seam), new EngineDiagnostics());

        for (int i = 0; i < 3; i++)
        {
            string source = TestFiles.Write(Path.Combine(_directory, $"s{i}.dll"), 5000, i);
            Directory.CreateDirectory(Path.Combine(_directory, "out"));
            TransferResult result = transfer.Transfer(source, Path.Combine(_directory, "out", $"d{i}.dll"), CancellationToken.None);
            Assert.Equal((TransferMethod.Copied, NotClonedReason.FilesystemCannotClone), (result.Method, result.Reason));
            Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Path.Combine(_directory, "out", $"d{i}.dll")));
        }

        Assert.Single(kernel.CallsTo("GetVolumeInformation"), c => c.StartsWith(@"GetVolumeInformation \\?\Volume{", StringComparison.Ordinal));
        Assert.Empty(kernel.CallsTo("GetDiskFreeSpace")); // a volume that cannot clone is not asked its cluster size
        // No file is opened to clone, and no folder either: no fixed drive of Wine's can clone, so no junction could
        // lead to one that does (each drive asked once: GetLogicalDrives, GetDriveTypeW, GetVolumeInformationW).
        Assert.Empty(kernel.CallsTo("CreateFile"));
        Assert.Single(kernel.CallsTo("GetLogicalDrives"));
    }

    [Fact]
    public void A_destination_on_a_drive_that_does_not_exist_is_another_volume_and_File_Copy_reports_its_own_error()
    {
        var diagnostics = new EngineDiagnostics();
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(WindowsSystemCalls.Instance), diagnostics);
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 100);
        Exception expected = Assert.ThrowsAny<Exception>(() => File.Copy(source, @"Q:\out.dll", overwrite: true));

        Exception actual = Assert.ThrowsAny<Exception>(() => transfer.Transfer(source, @"Q:\out.dll", CancellationToken.None));

        Assert.Equal((expected.GetType(), expected.Message), (actual.GetType(), actual.Message));
        Assert.False(diagnostics.TryTake(out _)); // nothing to say: no clone is possible between two volumes anyway
    }

    [Fact]
    public void A_path_of_300_characters_reaches_Wine_s_CreateFile_in_its_extended_form_and_is_created()
    {
        // Wine does not enforce MAX_PATH (ASSUMED A9 for Windows' code): this checks that the \\?\ form the seam now
        // adds is a path Wine's kernel32 opens, creates and queries, not the MAX_PATH rule itself.
        string folder = Path.Combine(_directory, string.Join(Path.DirectorySeparatorChar, Enumerable.Range(0, 5).Select(i => new string((char)('a' + i), 57))));
        Directory.CreateDirectory(folder);
        string file = Path.Combine(folder, "long.dll");
        var kernel = new RecordingWindowsSystemCalls();
        IWindowsSystemCalls calls = LongPathCalls.Over(kernel.Seam);

        Assert.Equal(0, calls.CreateFile(file, Win32.GenericRead | Win32.GenericWrite, 0, Win32.CreateNew, Win32.FileAttributeNormal, out Microsoft.Win32.SafeHandles.SafeFileHandle handle));
        Assert.Equal(0, calls.QueryAllInformation(handle, out Win32FileAllInformation information));
        calls.CloseHandle(handle);

        Assert.True(file.Length >= 300);
        Assert.Contains($@"CreateFile \\?\{file} CreateNew => 0", kernel.Calls);
        Assert.True(File.Exists(file));
        Assert.Equal(0, information.EndOfFile);
    }

    [Fact]
    public void The_OS_build_comes_from_RtlGetVersion()
    {
        Assert.True(WindowsOsBuild.Current > 0);
        Assert.Equal(Environment.OSVersion.Version.Build, WindowsOsBuild.Current); // .NET reads RtlGetVersion too
    }

    [Fact]
    public void The_CopyFile_question_is_answered_with_the_real_destination_and_Wine_s_CopyFile_is_found_not_to_clone()
    {
        // As on a Windows build that may clone in CopyFile (RtlGetVersion scripted to 22631), on a volume made to claim
        // block refcounting, with the clone FSCTL scripted: the first large file is copied by Wine's real CopyFileW, the
        // first clusters of source and copy are asked of Wine's FSCTL_GET_RETRIEVAL_POINTERS (no shared
        // cluster: Wine answers an error or LCN 0), and CopyFile's copy, a correct copy, is kept (no clone). Nothing
        // but the source and its destination is ever in the folder.
        var kernel = new RecordingWindowsSystemCalls { ClaimBlockRefcounting = true, OsBuild = 22631, Fsctl = (name, _) => name == "DuplicateExtents" ? 0 : null };
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(kernel.Seam), new EngineDiagnostics());
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 70_000);
        string destination = Path.Combine(_directory, "b.dll");

        TransferResult result = transfer.Transfer(source, destination, CancellationToken.None);

        Console.WriteLine($"Wine's FSCTL_GET_RETRIEVAL_POINTERS: {string.Join("; ", kernel.CallsTo("GetExtents"))}");
        Assert.Equal((TransferMethod.Copied, NotClonedReason.CopyFileCopiedWhenAsked), (result.Method, result.Reason));
        Assert.Equal($"CopyFile {source} {destination} => 0", Assert.Single(kernel.CallsTo("CopyFile")));
        Assert.NotEmpty(kernel.CallsTo("GetExtents"));
        Assert.Empty(kernel.CallsTo("DuplicateExtents"));
        Assert.Equal(new[] { "a.dll", "b.dll" }, Directory.GetFiles(_directory).Select(Path.GetFileName).Order());
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
    }

    [Fact]
    public void A_hard_link_made_through_kernel32_counts_two_links_and_is_a_shared_entry()
    {
        string cache = TestFiles.Write(Path.Combine(_directory, "cache.dll"), 100);
        string linked = Path.Combine(_directory, "linked.dll");
        string lone = TestFiles.Write(Path.Combine(_directory, "lone.dll"), 100);

        Assert.True(PlatformFactory.Current.TryCreateHardLink(cache, linked, out string error), error);

        Assert.Equal(2u, RealFileIds.Read(linked, followLinks: false)!.Value.Links);
        Assert.True(PlatformFactory.Current.IsSharedEntry(PlatformFactory.Current.Probe(linked)));
        Assert.False(PlatformFactory.Current.IsSharedEntry(PlatformFactory.Current.Probe(lone)));
    }

    [Fact]
    public void PathProbe_answers_as_File_Exists_and_Directory_Exists_with_one_attribute_query()
    {
        string file = TestFiles.Write(Path.Combine(_directory, "a.dll"), 10);

        PathStatus onFile = PlatformFactory.Current.Probe(file);
        PathStatus onFolder = PlatformFactory.Current.Probe(_directory);
        PathStatus onNothing = PlatformFactory.Current.Probe(Path.Combine(_directory, "none", "x.dll"));

        Assert.True(onFile.Exists && !onFile.IsDirectory && !onFile.IsLink && !onFile.HasIdentity);
        Assert.Equal(file, onFile.FullPath);
        Assert.True(onFolder.Exists && onFolder.IsDirectory);
        Assert.False(onNothing.Exists || onNothing.IsDirectory);
    }
}
