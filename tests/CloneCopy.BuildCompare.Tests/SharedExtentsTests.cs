using System.IO;
using CloneCopy.BuildCompare;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>
/// The outputs' disk space from their extent maps, on a real reflink XFS, loop-mounted by the tests' one fixture
/// (<see cref="LoopFilesystems"/>; the temporary folder may be tmpfs, which has no extent maps). Outside CI these
/// skip where it cannot be had; under CI=true they fail.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class SharedExtentsTests(LoopFilesystems filesystems)
{
    private const int OneMebibyte = 1 << 20;

    [FilesystemFact]
    public void The_same_blocks_reached_twice_count_once()
    {
        string root = filesystems.NewDirectory(FilesystemKind.Xfs);
        string file = Path.Combine(root, "a.bin");
        File.WriteAllBytes(file, Content(OneMebibyte));
        string link = Path.Combine(root, "b.bin");
        File.CreateSymbolicLink(link, file);

        var once = SharedExtents.Measure([file]);
        var twice = SharedExtents.Measure([file, link]);

        Assert.NotNull(once);
        Assert.Equal(new SharedExtents.Usage(OneMebibyte, 0, OneMebibyte), once);
        Assert.Equal(once, twice);
    }

    [FilesystemFact]
    public void A_clone_and_its_source_count_once_and_as_shared()
    {
        string root = filesystems.NewDirectory(FilesystemKind.Xfs);
        string file = Path.Combine(root, "a.bin");
        File.WriteAllBytes(file, Content(OneMebibyte));
        string clone = Path.Combine(root, "clone.bin");
        ProcessRunner.RunChecked("cp", $"--reflink=always \"{file}\" \"{clone}\"");
        string copy = Path.Combine(root, "copy.bin");
        ProcessRunner.RunChecked("cp", $"--reflink=never \"{file}\" \"{copy}\"");

        Assert.Equal(new SharedExtents.Usage(OneMebibyte, OneMebibyte, 0), SharedExtents.Measure([file, clone]));
        Assert.Equal(new SharedExtents.Usage(OneMebibyte, OneMebibyte, 0), SharedExtents.Measure([clone]));
        Assert.Equal(new SharedExtents.Usage(2 * OneMebibyte, OneMebibyte, OneMebibyte), SharedExtents.Measure([clone, copy]));
    }

    /// <summary>Not zeros: a filesystem may keep a file of zeros as a hole, which has no extents.</summary>
    private static byte[] Content(int length)
    {
        var bytes = new byte[length];
        new System.Random(7).NextBytes(bytes);
        return bytes;
    }
}
