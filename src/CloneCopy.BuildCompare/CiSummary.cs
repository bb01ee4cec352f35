using System;
using System.IO;

namespace CloneCopy.BuildCompare;

/// <summary>
/// Hands the Markdown report to the CI system running this, where it shows on the run's summary page:
/// GitHub Actions appends it to $GITHUB_STEP_SUMMARY; Azure Pipelines takes a logging command naming the file.
/// </summary>
public static class CiSummary
{
    /// <summary>What was done, for the log ("added to the GitHub Actions job summary"), or null outside those CI systems.</summary>
    public static string? Publish(string markdownPath, TextWriter output)
    {
        string? github = Environment.GetEnvironmentVariable("GITHUB_STEP_SUMMARY");
        if (!string.IsNullOrEmpty(github))
        {
            File.AppendAllText(github, File.ReadAllText(markdownPath) + Environment.NewLine);
            return "added to the GitHub Actions job summary";
        }

        if (string.Equals(Environment.GetEnvironmentVariable("TF_BUILD"), "True", StringComparison.OrdinalIgnoreCase))
        {
            output.WriteLine($"##vso[task.uploadsummary]{markdownPath}");
            return "added to the Azure Pipelines run summary";
        }

        return null;
    }
}
