using System;
using System.Globalization;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace CloneCopy.BuildCompare;

/// <summary>Runs a comparison and writes its three files; the exit code and the one error message the user sees.</summary>
public static class CompareCommand
{
    public const string ReportFile = "report.md";
    public const string JsonFile = "results.json";
    public const string ChartFile = "builds.svg";

    /// <returns>0: compared; 1: a build or the set-up failed (the message says which, and the log to read).</returns>
    public static async Task<int> RunAsync(CompareOptions options, CancellationToken cancellation)
    {
        IProgressDisplay progress = options.Interactive ? new TerminalProgress() : new PlainProgress(Console.Out);
        ComparisonResult result;
        try
        {
            result = await progress.RunAsync(() => new Comparison(options, progress).RunAsync(cancellation));
        }
        catch (CompareFailure failure)
        {
            Console.Error.WriteLine($"clonecopy-compare: {failure.Message}");
            return 1;
        }
        catch (OperationCanceledException)
        {
            // Ctrl+C or SIGTERM: the running build was stopped and the repository put back before this.
            Console.Error.WriteLine("clonecopy-compare: stopped; the repository is as it was before.");
            return 130;
        }

        string report = Path.Combine(options.OutputDirectory, ReportFile);
        File.WriteAllText(report, MarkdownReport.Write(result, ChartFile));
        JsonReport.Write(result, Path.Combine(options.OutputDirectory, JsonFile));
        TimeChart.Write(result, Path.Combine(options.OutputDirectory, ChartFile));

        Console.Out.WriteLine();
        Console.Out.Write(File.ReadAllText(report));
        Console.Out.WriteLine();
        Console.Out.WriteLine(string.Create(CultureInfo.InvariantCulture, $"clonecopy-compare: {ReportFile}, {JsonFile}, {ChartFile} written to {options.OutputDirectory}"));
        if (CiSummary.Publish(report, Console.Out) is string published)
        {
            Console.Out.WriteLine($"clonecopy-compare: report {published}");
        }

        return 0;
    }
}
