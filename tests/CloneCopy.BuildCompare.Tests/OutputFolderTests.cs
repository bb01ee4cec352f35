using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>A second run never silently replaces the first one's report, nor puts its logs beside the first one's.</summary>
public sealed class OutputFolderTests
{
    [Fact]
    public async Task A_second_run_into_the_default_folder_goes_to_the_next_numbered_one()
    {
        using var repository = new TinyRepository();
        string first = OutputFolder.DefaultFor(repository.Root);
        Assert.Equal(repository.Root + ".clonecopy-compare", first);
        // What the first run left there (its report and logs), as it wrote them.
        Directory.CreateDirectory(Path.Combine(first, "logs"));
        File.WriteAllText(Path.Combine(first, CompareCommand.ReportFile), "the first run's report");
        File.WriteAllText(Path.Combine(first, "logs", "build-01-clonecopy.log"), "the first run's log");

        string second = OutputFolder.DefaultFor(repository.Root);
        Assert.Equal(repository.Root + ".clonecopy-compare-2", second);
        Assert.Equal(0, await CompareCommand.RunAsync(new CompareOptions(repository.Project, 1, second, repository.Sdk, [], Interactive: false), CancellationToken.None));

        Assert.Equal("the first run's report", File.ReadAllText(Path.Combine(first, CompareCommand.ReportFile)));
        Assert.Equal(["build-01-clonecopy.log"], Directory.GetFiles(Path.Combine(first, "logs")).Select(Path.GetFileName));
        Assert.Contains("## Build time with CloneCopy", File.ReadAllText(Path.Combine(second, CompareCommand.ReportFile)));
        Assert.Equal(repository.Root + ".clonecopy-compare-3", OutputFolder.DefaultFor(repository.Root));
    }

    [Fact]
    public async Task A_named_folder_holding_an_earlier_comparison_is_refused_without_force()
    {
        using var repository = new TinyRepository();
        repository.WriteOutput("report.md", "the earlier report");
        repository.WriteOutput("logs/build-07-clonecopy.log", "an earlier run's log");

        var failure = await Assert.ThrowsAsync<CompareFailure>(() =>
            new Comparison(new CompareOptions(repository.Project, 1, repository.Output, repository.Sdk, [], Interactive: false), new PlainProgress(TextWriter.Null)).RunAsync(CancellationToken.None));

        Assert.Contains($"{repository.Output} holds an earlier comparison (report.md, logs)", failure.Message);
        Assert.Contains("--force", failure.Message);
        Assert.Equal("the earlier report", File.ReadAllText(Path.Combine(repository.Output, "report.md")));
        Assert.True(File.Exists(Path.Combine(repository.Output, "logs", "build-07-clonecopy.log")));
    }

    [Fact]
    public async Task Force_replaces_the_earlier_comparison_and_keeps_set_aside_files()
    {
        using var repository = new TinyRepository();
        repository.WriteOutput("report.md", "the earlier report");
        repository.WriteOutput("logs/build-07-clonecopy.log", "an earlier run's log");
        repository.WriteOutput("set-aside/notes.txt", "a user's file");

        int exit = await CompareCommand.RunAsync(new CompareOptions(repository.Project, 1, repository.Output, repository.Sdk, [], Interactive: false, Force: true), CancellationToken.None);

        Assert.Equal(0, exit);
        Assert.DoesNotContain("the earlier report", File.ReadAllText(Path.Combine(repository.Output, "report.md")));
        Assert.False(File.Exists(Path.Combine(repository.Output, "logs", "build-07-clonecopy.log")));
        Assert.True(File.Exists(Path.Combine(repository.Output, "logs", "build-01-clonecopy.log")));
        Assert.Equal("a user's file", File.ReadAllText(Path.Combine(repository.Output, "set-aside", "notes.txt")));
    }
}
