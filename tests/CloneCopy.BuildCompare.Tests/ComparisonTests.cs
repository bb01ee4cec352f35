using System;
using System.IO;
using System.Text.Json;
using System.Threading;
using System.Threading.Tasks;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>The tool against real `dotnet build`s of a one-project repository, with the stand-in package.</summary>
public sealed class ComparisonTests
{
    [Fact]
    public async Task A_path_that_does_not_exist_is_named()
    {
        using var repository = new TinyRepository();
        string missing = Path.Combine(repository.Root, "Nope.slnx");

        var failure = await Assert.ThrowsAsync<CompareFailure>(() => Compare(repository, missing));

        Assert.Contains("No such solution or project", failure.Message);
        Assert.Contains(missing, failure.Message);
    }

    [Fact]
    public async Task A_project_that_does_not_build_names_the_error_and_the_log_and_leaves_the_repository_as_it_was()
    {
        using var repository = new TinyRepository(classBody: "public static int Broken => ;");
        var before = repository.State();

        var failure = await Assert.ThrowsAsync<CompareFailure>(() => Compare(repository, repository.Project));

        Assert.Contains("does not build, with CloneCopy or with MSBuild's Copy", failure.Message);
        Assert.Contains("error CS1525", failure.Message);
        Assert.True(File.Exists(failure.LogPath), failure.Message);
        Assert.Equal(before, repository.State());
    }

    [Fact]
    public async Task A_build_that_fails_only_with_MSBuilds_Copy_says_so()
    {
        using var repository = new TinyRepository(extraProjectContent: """
            <Target Name="FailWithoutCloneCopy" AfterTargets="Build" Condition="'$(DisableCloneCopy)' == 'true'">
              <Error Text="this build needs CloneCopy" />
            </Target>
            """);
        var before = repository.State();

        var failure = await Assert.ThrowsAsync<CompareFailure>(() => Compare(repository, repository.Project));

        Assert.Contains("fails only with MSBuild's Copy", failure.Message);
        Assert.Contains("this build needs CloneCopy", failure.Message);
        Assert.EndsWith("warm-up-msbuild-copy.log", failure.LogPath);
        Assert.Equal(before, repository.State());
    }

    [Fact]
    public async Task Outputs_of_an_earlier_build_stop_it_before_anything_is_built()
    {
        using var repository = new TinyRepository();
        repository.Write("Lib/bin/Debug/net10.0/Lib.dll", "from an earlier build");

        var failure = await Assert.ThrowsAsync<CompareFailure>(() => Compare(repository, repository.Project));

        Assert.Contains("outputs of an earlier build", failure.Message);
        Assert.Contains("Lib has outputs of an earlier build (bin)", failure.Message);
        Assert.False(File.Exists(Path.Combine(repository.Output, "logs", "restore.log")));
    }

    [Fact]
    public async Task A_package_path_that_does_not_exist_is_named()
    {
        using var repository = new TinyRepository();
        string missing = Path.Combine(repository.Base, "CloneCopy.9.9.9.nupkg");

        var failure = await Assert.ThrowsAsync<CompareFailure>(() => Compare(repository, repository.Project, sdk: missing));

        Assert.Contains($"--sdk {missing}: no such file or folder", failure.Message);
    }

    [Fact]
    public async Task A_comparison_writes_a_report_json_and_chart_that_agree_and_leaves_the_repository_as_it_was()
    {
        using var repository = new TinyRepository();
        var before = repository.State();
        var options = new CompareOptions(repository.Project, 1, repository.Output, repository.Sdk, ["-p:Deterministic=true"], Interactive: false);

        int exit = await CompareCommand.RunAsync(options, CancellationToken.None);

        Assert.Equal(0, exit);
        Assert.Equal(before, repository.State());
        string report = File.ReadAllText(Path.Combine(repository.Output, CompareCommand.ReportFile));
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(repository.Output, CompareCommand.JsonFile)));
        string chart = File.ReadAllText(Path.Combine(repository.Output, CompareCommand.ChartFile));

        // Warm-up each way plus one timed build each way; the injected stand-in said its line in the CloneCopy way only.
        Assert.Equal(4, json.RootElement.GetProperty("builds").GetArrayLength());
        Assert.StartsWith("injected", json.RootElement.GetProperty("cloneCopySource").GetString());
        var cloneCopy = json.RootElement.GetProperty("summary").GetProperty("cloneCopy");
        double median = cloneCopy.GetProperty("medianSeconds").GetDouble();
        Assert.Contains(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"| CloneCopy | {median:0.00} s |"), report);
        Assert.Contains("| the filesystem cannot clone | 2 |", report);
        Assert.True(json.RootElement.GetProperty("outputs").GetProperty("same").GetBoolean(), report);
        Assert.Contains("**Same outputs:**", report);
        Assert.Contains("`-p:Deterministic=true`", report);
        Assert.Contains("<svg", chart);
        Assert.Contains("CloneCopy (median", chart);
    }

    private static Task<ComparisonResult> Compare(TinyRepository repository, string target, string? sdk = null) =>
        new Comparison(new CompareOptions(target, 1, repository.Output, sdk ?? repository.Sdk, [], Interactive: false), new PlainProgress(TextWriter.Null))
            .RunAsync(CancellationToken.None);
}
