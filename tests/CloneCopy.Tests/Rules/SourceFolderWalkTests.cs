using System;
using System.IO;
using System.Linq;
using Xunit;

namespace CloneCopy.Tests.Rules;

/// <summary>
/// The two walks of a SourceFolders item (depth first up to MSBuild 18.10, breadth first from 18.11 under change wave
/// 18.11), each driven directly: this lane runs MSBuild 18.9, whose Copy only ever asks for the depth-first one, so the
/// breadth-first walk's rules would otherwise be seen only in the msbuild-18.12 lane. And which folders MSBuild 18.11+
/// still walks the old way.
/// </summary>
public sealed class SourceFolderWalkTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("clonecopy-walk-").FullName;

    public void Dispose() => Directory.Delete(_root, recursive: true);

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_link_to_its_own_ancestor_is_not_entered_and_every_real_file_is_listed_once(bool breadthFirst)
    {
        // sf/sub/up -> sf and sf/sub/deeper/top -> sf/sub: entered, each would list the tree again, level after level,
        // until the path is too long or the kernel refuses the links; a link to a sibling folder is an ordinary folder.
        string folder = Path.Combine(_root, "sf");
        Directory.CreateDirectory(Path.Combine(folder, "sub", "deeper"));
        Directory.CreateDirectory(Path.Combine(folder, "other"));
        File.WriteAllText(Path.Combine(folder, "a.txt"), "a");
        File.WriteAllText(Path.Combine(folder, "sub", "b.txt"), "b");
        File.WriteAllText(Path.Combine(folder, "sub", "deeper", "c.txt"), "c");
        File.WriteAllText(Path.Combine(folder, "other", "d.txt"), "d");
        Directory.CreateSymbolicLink(Path.Combine(folder, "sub", "up"), folder);
        Directory.CreateSymbolicLink(Path.Combine(folder, "sub", "deeper", "top"), Path.Combine(folder, "sub"));
        Directory.CreateSymbolicLink(Path.Combine(folder, "sub", "to-other"), Path.Combine(folder, "other"));

        string[] listed = [.. SourceFolderEnumerator.Enumerate(folder, breadthFirst).Take(100).Select(entry => entry.Relative)];

        Assert.Equal(
            ["a.txt", "other/d.txt", "sub/b.txt", "sub/deeper/c.txt", "sub/to-other/d.txt"],
            listed.Order(StringComparer.Ordinal));
    }

    [Theory]
    [InlineData("/", false, true)]
    [InlineData("//", false, false)] // its root is "/"
    [InlineData("/mnt/xfs", false, false)] // a mount point is a folder like any other to MSBuild
    [InlineData("/tmp/", false, false)]
    [InlineData("C:\\", false, false)] // a name on Unix
    [InlineData("C:\\", true, true)]
    [InlineData("c:/", true, true)]
    [InlineData("\\", true, true)] // the current drive's root
    [InlineData("/", true, true)]
    [InlineData("C:", true, false)] // the current folder on C:
    [InlineData("C:tree", true, false)]
    [InlineData("C:\\tree", true, false)]
    [InlineData("C:\\\\", true, false)] // not its own root
    [InlineData("\\\\server\\share", true, false)] // a root, but not one "**" enumerates whole to MSBuild
    [InlineData("\\\\?\\C:\\", true, false)]
    public void MSBuild_18_11_walks_only_a_whole_drive_s_root_the_old_way(string folder, bool windows, bool oldWalk)
    {
        Assert.Equal(oldWalk, SourceFolderPath.IsDriveRoot(folder, windows));
    }

    [Fact]
    public void The_root_folder_is_listed_depth_first_even_where_MSBuild_s_new_walk_is_on()
    {
        var environment = CopyEnvironment.ForProcess();

        Assert.False(SourceFolderPath.Of("/", environment).ListedBreadthFirst(newWalkOn: true));
        Assert.False(SourceFolderPath.Of("/.", environment).ListedBreadthFirst(newWalkOn: true));
        Assert.True(SourceFolderPath.Of(_root, environment).ListedBreadthFirst(newWalkOn: true));
        Assert.False(SourceFolderPath.Of(_root, environment).ListedBreadthFirst(newWalkOn: false));
    }
}
