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
    public static string? Publish(string markdownPath, TextWriter output) => Publish(markdownPath, output, Environment.GetEnvironmentVariable);

    /// <summary>
    /// As <see cref="Publish(string, TextWriter)"/>, with the CI system's variables read through <paramref name="variable"/>
    /// (a test's own: the process's environment is shared by every test running at the time).
    /// </summary>
    public static string? Publish(string markdownPath, TextWriter output, Func<string, string?> variable)
    {
        string? github = variable("GITHUB_STEP_SUMMARY");
        if (!string.IsNullOrEmpty(github))
        {
            // Appended: the file is the step's, and the workflow's own lines (or an earlier comparison in the same step)
            // may be in it already.
            File.AppendAllText(github, File.ReadAllText(markdownPath) + Environment.NewLine);
            return "added to the GitHub Actions job summary";
        }

        if (string.Equals(variable("TF_BUILD"), "True", StringComparison.OrdinalIgnoreCase))
        {
            output.WriteLine($"##vso[task.uploadsummary]{markdownPath}");
            return "added to the Azure Pipelines run summary";
        }

        return null;
    }
}
