using System.IO;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

public sealed class RepositorySnapshotTests
{
    [Fact]
    public void Deleting_what_is_new_keeps_every_earlier_file_and_the_excluded_folder()
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

        Assert.Equal(2, snapshot.NewFiles().Count);
        snapshot.DeleteNew();

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
