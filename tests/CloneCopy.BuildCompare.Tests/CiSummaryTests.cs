using System;
using System.Collections.Generic;
using System.IO;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>
/// The report handed to the CI system's run summary. GitHub Actions gives each step one summary file: what the step wrote
/// there before the tool ran (the workflow's own heading, an earlier comparison in the same step) must still be there
/// after it, with the report after it. The CI system's variables come from a dictionary of the test's own, never from
/// the process's environment, which every test running at the time shares.
/// </summary>
public sealed class CiSummaryTests : IDisposable
{
    private const string EarlierContent = "## Build and test\n\n| lane | passed |\n|---|---:|\n| linux | 1235 |\n";

    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-ci-summary").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void What_the_step_wrote_to_the_GitHub_job_summary_before_is_kept_and_the_report_follows_it()
    {
        string summary = Path.Combine(_directory, "step_summary");
        File.WriteAllText(summary, EarlierContent);
        string report = Report("report.md");

        string? said = CiSummary.Publish(report, TextWriter.Null, Variables(("GITHUB_STEP_SUMMARY", summary)));

        Assert.Equal("added to the GitHub Actions job summary", said);
        Assert.Equal(EarlierContent + File.ReadAllText(report) + Environment.NewLine, File.ReadAllText(summary));
    }

    [Fact]
    public void Two_comparisons_in_one_step_both_reach_the_GitHub_job_summary_in_the_order_they_ran()
    {
        string summary = Path.Combine(_directory, "step_summary");
        File.WriteAllText(summary, string.Empty); // GitHub creates the file empty for each step
        string first = Report("first.md", cloneCopySeconds: 10.0);
        string second = Report("second.md", cloneCopySeconds: 20.0);
        Func<string, string?> github = Variables(("GITHUB_STEP_SUMMARY", summary));

        CiSummary.Publish(first, TextWriter.Null, github);
        CiSummary.Publish(second, TextWriter.Null, github);

        Assert.Equal(File.ReadAllText(first) + Environment.NewLine + File.ReadAllText(second) + Environment.NewLine, File.ReadAllText(summary));
    }

    [Fact]
    public void Azure_Pipelines_gets_a_logging_command_naming_the_report_and_no_file_is_written()
    {
        string report = Report("report.md");
        using var output = new StringWriter();

        string? said = CiSummary.Publish(report, output, Variables(("TF_BUILD", "True")));

        Assert.Equal("added to the Azure Pipelines run summary", said);
        Assert.Equal($"##vso[task.uploadsummary]{report}{Environment.NewLine}", output.ToString());
        Assert.Equal([report], Directory.GetFiles(_directory));
    }

    [Fact]
    public void Outside_a_CI_system_nothing_is_published()
    {
        string report = Report("report.md");
        using var output = new StringWriter();

        Assert.Null(CiSummary.Publish(report, output, Variables()));
        Assert.Empty(output.ToString());
        Assert.Equal([report], Directory.GetFiles(_directory));
    }

    /// <summary>A report as the tool writes it, from made-up builds.</summary>
    private string Report(string name, double cloneCopySeconds = 10.0)
    {
        string path = Path.Combine(_directory, name);
        var result = Builds.Result(Builds.Timed([cloneCopySeconds, cloneCopySeconds + 0.2], [11.0, 11.1], cloneCopyTaskMs: 300, msbuildTaskMs: 900));
        File.WriteAllText(path, MarkdownReport.Write(result, "builds.svg"));
        return path;
    }

    private static Func<string, string?> Variables(params (string Name, string Value)[] set)
    {
        var variables = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (name, value) in set)
        {
            variables[name] = value;
        }

        return name => variables.TryGetValue(name, out string? value) ? value : null;
    }
}
