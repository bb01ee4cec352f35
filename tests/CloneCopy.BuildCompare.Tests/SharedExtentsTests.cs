using System.IO;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

public sealed class SharedExtentsTests
{
    [Fact]
    public void The_same_blocks_reached_twice_count_once()
    {
        Assert.SkipUnless(System.OperatingSystem.IsLinux(), "extent maps are read on Linux only");
        string folder = Directory.CreateTempSubdirectory("extents").FullName;
        string file = Path.Combine(folder, "a.bin");
        File.WriteAllBytes(file, new byte[1 << 20]);
        string link = Path.Combine(folder, "b.bin");
        File.CreateSymbolicLink(link, file);

        var once = SharedExtents.Measure([file]);
        Assert.SkipWhen(once is null, "this filesystem has no extent maps (tmpfs)");
        var twice = SharedExtents.Measure([file, link]);

        Assert.Equal(1 << 20, once!.PhysicalBytes);
        Assert.Equal(once.PhysicalBytes, twice!.PhysicalBytes);
        Directory.Delete(folder, recursive: true);
    }
}
