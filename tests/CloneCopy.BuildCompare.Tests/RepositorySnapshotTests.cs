using System.IO;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

public sealed class RepositorySnapshotTests
{
    [Fact]
    public void Taking_away_what_is_new_keeps_every_earlier_file_and_the_excluded_folder_and_deletes_no_file_outside_bin_and_obj()
    {
        string root = Directory.CreateTempSubdirectory("snapshot").FullName;
        File.WriteAllText(Path.Combine(root, "App.csproj"), "<Project />");
        Directory.CreateDirectory(Path.Combine(root, "obj"));
        File.WriteAllText(Path.Combine(root, "obj", "project.assets.json"), "{}");
        string excluded = Path.Combine(root, "report");
        var snapshot = RepositorySnapshot.Take(root, excluded);

        Directory.CreateDirectory(Path.Combine(root, "bin", "Debug"));
        File.WriteAllText(Path.Combine(root, "bin", "Debug", "App.dll"), "x");
        File.WriteAllText(Path.Combine(root, "obj", "App.cache"), "x");
        Directory.CreateDirectory(excluded);
        File.WriteAllText(Path.Combine(excluded, "report.md"), "x");

        File.WriteAllText(Path.Combine(root, "notes.txt"), "the user's own, saved while the builds ran");
        string setAside = Path.Combine(Path.GetTempPath(), "set-aside-" + Path.GetFileName(root));

        Assert.Equal(3, snapshot.NewFiles().Count);
        var moved = snapshot.RemoveNew(setAside);

        Assert.Equal([Path.Combine(setAside, "notes.txt")], moved);
        Assert.Equal("the user's own, saved while the builds ran", File.ReadAllText(Path.Combine(setAside, "notes.txt")));
        Assert.False(File.Exists(Path.Combine(root, "notes.txt")));

        Assert.False(Directory.Exists(Path.Combine(root, "bin")));
        Assert.False(File.Exists(Path.Combine(root, "obj", "App.cache")));
        Assert.True(File.Exists(Path.Combine(root, "obj", "project.assets.json")));
        Assert.True(File.Exists(Path.Combine(root, "App.csproj")));
        Assert.True(File.Exists(Path.Combine(excluded, "report.md")));
        Directory.Delete(root, recursive: true);
    }

    [Fact]
    public void Outputs_of_an_earlier_build_are_found_but_restore_files_are_not()
    {
        string root = Directory.CreateTempSubdirectory("snapshot").FullName;
        Directory.CreateDirectory(Path.Combine(root, "Lib", "obj"));
        File.WriteAllText(Path.Combine(root, "Lib", "obj", "project.assets.json"), "{}");
        Assert.Empty(RepositorySnapshot.EarlierBuildOutputs(root, null));

        Directory.CreateDirectory(Path.Combine(root, "Lib", "obj", "Debug"));
        Assert.Equal([Path.Combine(root, "Lib", "obj")], RepositorySnapshot.EarlierBuildOutputs(root, null));
        Directory.Delete(root, recursive: true);
    }
}
