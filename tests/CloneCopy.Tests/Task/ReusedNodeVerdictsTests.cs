using System;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// A reused MSBuild node keeps CloneCopy loaded between builds, and with it the Linux transfer's verdicts per pair
/// of devices ("this filesystem cannot clone"). Between two builds a filesystem may be remounted: a folder moved to a
/// reflink XFS, a loop image reformatted. The verdicts must belong to one build, or the node copies every file for
/// the rest of its life (the Windows side has its own test). Shown with a real remount: one loop device,
/// first formatted ext4 (no clones) and mounted, then reformatted as a reflink XFS and mounted at the same path, so
/// that the device number the verdict is keyed by is the same. One process throughout, as a node; each build is a
/// new engine with its own build-lifetime objects, as MSBuild gives a new build.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class ReusedNodeVerdictsTests
{
    private readonly LoopFilesystems _filesystems;

    public ReusedNodeVerdictsTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemFact]
    public void A_reused_node_clones_in_the_next_build_after_the_filesystem_was_remounted_with_reflink()
    {
        // The fixture's filesystems are only asked for to fail here, not skip, under CI where they cannot be had.
        string scratch = _filesystems.NewDirectory(FilesystemKind.Ext4, "remount");
        string image = Path.Combine(scratch, "swap.img");
        string mountPoint = Path.Combine(scratch, "mnt");
        Directory.CreateDirectory(mountPoint);
        ProcessRunner.RunChecked("truncate", $"-s 600M \"{image}\"");
        string device = ProcessRunner.RunChecked("losetup", $"--find --show \"{image}\"").Trim();
        bool mounted = false;
        try
        {
            // Build 1: ext4 cannot clone; the transfer remembers that for this device.
            ProcessRunner.RunChecked("mkfs.ext4", $"-q -F \"{device}\"");
            ProcessRunner.RunChecked("mount", $"\"{device}\" \"{mountPoint}\"");
            mounted = true;
            string firstDevice = DeviceOf(mountPoint);
            var firstBuild = new ProjectBuildEngine();
            var first = CopyOne(firstBuild, mountPoint, seed: 1);
            Assert.StartsWith("CloneCopy: copied ", first.Outcome);
            Assert.False(ExtentMap.SharesAllExtents(first.Source, first.Destination, out string copied), $"ext4 cloned, so this test proves nothing: {copied}");

            // The same device, reformatted as a reflink XFS and mounted at the same path.
            ProcessRunner.RunChecked("umount", $"\"{mountPoint}\"");
            mounted = false;
            ProcessRunner.RunChecked("mkfs.xfs", $"-q -f -m reflink=1 \"{device}\"");
            ProcessRunner.RunChecked("mount", $"\"{device}\" \"{mountPoint}\"");
            mounted = true;
            Assert.Equal(firstDevice, DeviceOf(mountPoint)); // the verdict's key is the same: only the build boundary can forget it

            // Still build 1: its verdict stands (FICLONE is not tried again), which shows the verdict is in effect.
            // (XFS's copy_file_range, which the copy then uses, shares the blocks by itself: so the extents cannot tell
            // a clone from this copy here, and CloneCopy's own per-file outcome is what tells them apart.)
            var still = CopyOne(firstBuild, mountPoint, seed: 2);
            Assert.StartsWith("CloneCopy: copied ", still.Outcome);

            // Build 2 on the same node: it must try FICLONE again, and clone.
            var second = CopyOne(new ProjectBuildEngine(), mountPoint, seed: 3);
            Assert.True(second.Outcome.StartsWith("CloneCopy: cloned ", StringComparison.Ordinal), $"the next build did not clone on a reflink XFS, so the last build's verdict was kept: {second.Outcome}");
            Assert.True(ExtentMap.SharesAllExtents(second.Source, second.Destination, out string cloned), cloned);
        }
        finally
        {
            if (mounted)
            {
                ProcessRunner.Run("umount", $"\"{mountPoint}\"");
            }

            ProcessRunner.Run("losetup", $"-d \"{device}\"");
            File.Delete(image);
        }
    }

    /// <summary>The device number of the filesystem holding <paramref name="path"/>.</summary>
    private static string DeviceOf(string path) => ProcessRunner.RunChecked("stat", $"-c %d \"{path}\"").Trim();

    /// <summary>
    /// A new 200 KB source in a new folder of the mount, copied by CloneCopy's Copy in the given build; with the
    /// per-file outcome CloneCopy logged for it ("CloneCopy: cloned …" or "CloneCopy: copied …").
    /// </summary>
    private static (string Source, string Destination, string Outcome) CopyOne(ProjectBuildEngine build, string mountPoint, int seed)
    {
        string source = TestFiles.Write(Path.Combine(mountPoint, $"src{seed}", "lib.dll"), 200_000, seed);
        string destination = Path.Combine(mountPoint, $"bin{seed}", "lib.dll");
        var task = new CloneCopy.Copy
        {
            BuildEngine = build,
            SourceFiles = [new TaskItem(source)],
            DestinationFiles = [new TaskItem(destination)],
        };
        Assert.True(task.Execute(), build.Recorded.Describe());
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        string outcome = build.Recorded.Messages.Select(m => m.Message ?? string.Empty)
            .Single(m => m.StartsWith("CloneCopy: c", StringComparison.Ordinal) && m.Contains($"\"{destination}\"", StringComparison.Ordinal));
        return (source, destination, outcome);
    }
}
