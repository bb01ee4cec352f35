using System;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// The differential harness walks each tree twice (its snapshot, its clean-up) and must not walk through the
/// trees' symbolic links: through a link to an ancestor it went about 40 links deep, where Linux refuses paths
/// by chance while any filesystem is being mounted; through a link leading out of the tree, the
/// clean-up would change modes outside it.
/// </summary>
public sealed class HarnessWalkTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-walk").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void The_snapshot_lists_a_link_to_an_ancestor_once_and_does_not_walk_through_it()
    {
        string root = Path.Combine(_directory, "tree");
        TestFiles.Write(Path.Combine(root, "g", "d1", "Case.txt"), 100);
        Directory.CreateDirectory(Path.Combine(root, "g", "d1", "d2"));
        Directory.CreateSymbolicLink(Path.Combine(root, "g", "d1", "d2", "up"), Path.Combine(root, "g"));

        string[] entries = TreeSnapshot.Take(root).Split(Environment.NewLine).Select(line => line.Split(' ')[0]).ToArray();

        Assert.Equal(["g/", "g/d1/", "g/d1/Case.txt", "g/d1/d2/", "g/d1/d2/up"], entries);
    }

    [Fact]
    public void Removing_a_tree_leaves_what_its_links_lead_to_alone()
    {
        string elsewhere = Path.Combine(_directory, "elsewhere");
        string kept = TestFiles.Write(Path.Combine(elsewhere, "kept.txt"), 10, mode: UnixFileMode.UserRead | UnixFileMode.GroupRead);
        string root = Path.Combine(_directory, "tree");
        Directory.CreateDirectory(root);
        Directory.CreateSymbolicLink(Path.Combine(root, "to-elsewhere"), elsewhere);

        DifferentialRunner.RemoveTree(root);

        Assert.False(Directory.Exists(root));
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.GroupRead, File.GetUnixFileMode(kept));
    }
}
