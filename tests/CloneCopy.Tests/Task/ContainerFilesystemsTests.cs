using System;
using System.Collections.Generic;
using System.IO;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// Where builds really run: in containers. Docker on an XFS host is overlayfs over reflink XFS, where the
/// kernel clones, from the image's lower layer too; rootless containers use FUSE (fuse-overlayfs), which answers FICLONE
/// with EOPNOTSUPP and supports copy_file_range. Both are mounted here over the loop-mounted reflink XFS (lower and
/// upper layers on it, as Docker's are on the host's disk), and the task's summary must say what happened and why.
/// Needs root (mount) and fuse-overlayfs (scripts/setup.sh installs it).
/// </summary>
/// <remarks>
/// The mounts stay until the class is done (<see cref="ContainerMounts"/>): overlayfs and FUSE mounts take anonymous
/// device numbers, which the kernel hands out again after an unmount, and the task's verdicts are per pair of devices
/// for as long as its process lives outside a build (a real build clears them per build). Unmounting fuse-overlayfs
/// after its test let the overlay mount get its number, and with it its "cannot clone" verdict.
/// </remarks>
[Collection(FilesystemCollection.Name)]
public sealed class ContainerFilesystemsTests : IClassFixture<ContainerFilesystemsTests.ContainerMounts>
{
    private readonly LoopFilesystems _filesystems;
    private readonly List<string> _mounted;

    public ContainerFilesystemsTests(LoopFilesystems filesystems, ContainerMounts mounts)
    {
        _filesystems = filesystems;
        _mounted = mounts.MountPoints;
    }

    /// <summary>The mount points of the class's tests, unmounted when the class is done.</summary>
    public sealed class ContainerMounts : IDisposable
    {
        public List<string> MountPoints { get; } = [];

        public void Dispose()
        {
            foreach (string mountPoint in MountPoints)
            {
                if (ProcessRunner.Run("umount", $"\"{mountPoint}\"").ExitCode != 0)
                {
                    ProcessRunner.Run("umount", $"-l \"{mountPoint}\"");
                }
            }
        }
    }

    [FilesystemFact]
    public void On_overlayfs_over_reflink_XFS_a_file_of_the_lower_layer_is_cloned_into_the_upper_layer()
    {
        var (lower, upper, merged) = Layers("overlay");
        string source = TestFiles.Write(Path.Combine(lower, "obj", "app.dll"), 1024 * 1024, seed: 35);
        ProcessRunner.RunChecked("mount", $"-t overlay overlay -o lowerdir=\"{lower}\",upperdir=\"{upper}\",workdir=\"{Path.Combine(Path.GetDirectoryName(upper)!, "work")}\" \"{merged}\"");
        _mounted.Add(merged);

        var (_, succeeded, engine) = TaskRunner.CopyToFolder([Path.Combine(merged, "obj", "app.dll")], Path.Combine(merged, "bin"));

        Assert.True(succeeded, engine.Describe());
        Assert.Equal(FileMetadata.Read(Path.Combine(merged, "obj", "app.dll")), FileMetadata.Read(Path.Combine(merged, "bin", "app.dll")));
        Assert.True(TaskRunner.Summary(engine) == $"CloneCopy: 1 file cloned ({SizeText.Format(1024 * 1024)} not written)", engine.Describe());
        // The new file is the upper layer's, and it shares the lower layer's blocks on the XFS beneath.
        Assert.True(ExtentMap.SharesAllExtents(source, Path.Combine(upper, "bin", "app.dll"), out string extents), extents);
    }

    [FilesystemFact]
    public void On_fuse_overlayfs_files_are_copied_in_the_kernel_and_the_summary_says_the_filesystem_cannot_clone()
    {
        var (lower, upper, merged) = Layers("fuse-overlayfs");
        TestFiles.Write(Path.Combine(lower, "obj", "app.dll"), 300_000, seed: 35);
        TestFiles.Write(Path.Combine(lower, "obj", "app.pdb"), 70_000, seed: 36);
        ProcessRunner.RunChecked("fuse-overlayfs", $"-o lowerdir=\"{lower}\",upperdir=\"{upper}\",workdir=\"{Path.Combine(Path.GetDirectoryName(upper)!, "work")}\" \"{merged}\"");
        _mounted.Add(merged);
        string[] sources = [Path.Combine(merged, "obj", "app.dll"), Path.Combine(merged, "obj", "app.pdb")];

        var (_, succeeded, engine) = TaskRunner.CopyToFolder(sources, Path.Combine(merged, "bin"));

        Assert.True(succeeded, engine.Describe());
        foreach (string source in sources)
        {
            Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(Path.Combine(merged, "bin", Path.GetFileName(source))));
        }

        Assert.True(TaskRunner.Summary(engine) == "CloneCopy: 0 files cloned (0 B not written), 2 copied (the filesystem cannot clone: 2)", engine.Describe());
        Assert.Contains(engine.Messages, m => m.Message!.Contains("in the kernel", StringComparison.Ordinal));
    }

    /// <summary>lower/, upper/, work/ and merged/ folders on the reflink XFS.</summary>
    private (string Lower, string Upper, string Merged) Layers(string name)
    {
        // Mounting needs root; outside CI a contributor without it skips (CI=true runs as root and fails instead).
        Assert.SkipUnless(LoopFilesystems.IsCi || ProcessRunner.Run("id", "-u").Output.Trim() == "0", "Needs root to mount overlay filesystems; CI=true makes this a failure.");
        string root = _filesystems.NewDirectory(FilesystemKind.Xfs, name);
        foreach (string folder in new[] { "lower", "upper", "work", "merged" })
        {
            Directory.CreateDirectory(Path.Combine(root, folder));
        }

        return (Path.Combine(root, "lower"), Path.Combine(root, "upper"), Path.Combine(root, "merged"));
    }
}
