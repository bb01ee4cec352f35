using System.IO;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>The outputs' disk space from their extent maps, on a real reflink XFS (see <see cref="ReflinkFilesystem"/>).</summary>
public sealed class SharedExtentsTests
{
    private const int OneMebibyte = 1 << 20;

    [Fact]
    public void The_same_blocks_reached_twice_count_once()
    {
        using var filesystem = ReflinkFilesystem.Mount();
        string file = Path.Combine(filesystem.Root, "a.bin");
        File.WriteAllBytes(file, Content(OneMebibyte));
        string link = Path.Combine(filesystem.Root, "b.bin");
        File.CreateSymbolicLink(link, file);

        var once = SharedExtents.Measure([file]);
        var twice = SharedExtents.Measure([file, link]);

        Assert.NotNull(once);
        Assert.Equal(new SharedExtents.Usage(OneMebibyte, 0, OneMebibyte), once);
        Assert.Equal(once, twice);
    }

    [Fact]
    public void A_clone_and_its_source_count_once_and_as_shared()
    {
        using var filesystem = ReflinkFilesystem.Mount();
        string file = Path.Combine(filesystem.Root, "a.bin");
        File.WriteAllBytes(file, Content(OneMebibyte));
        string clone = Path.Combine(filesystem.Root, "clone.bin");
        ReflinkFilesystem.Checked("cp", $"--reflink=always \"{file}\" \"{clone}\"");
        string copy = Path.Combine(filesystem.Root, "copy.bin");
        ReflinkFilesystem.Checked("cp", $"--reflink=never \"{file}\" \"{copy}\"");

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
