using System;
using System.IO;
using System.Linq;

namespace CloneCopy.BuildCompare;

/// <summary>
/// Where a comparison's files go, so that one run's report and logs are never mixed with, or silently replace,
/// another's. The default folder beside the repository is never reused once it holds a comparison: the next run
/// takes the next free numbered one (&lt;folder&gt;.clonecopy-compare-2, -3, ...), as a browser names a second download.
/// A folder the user names that holds an earlier comparison is refused unless --force, which deletes that earlier
/// comparison's files (only the names this tool writes; set-aside/, which may hold the user's own files, stays).
/// </summary>
public static class OutputFolder
{
    /// <summary>What this tool writes into the folder; any of them there means an earlier comparison.</summary>
    private static readonly string[] OwnNames =
    [
        CompareCommand.ReportFile, CompareCommand.JsonFile, CompareCommand.ChartFile, "builds.png", "logs", "sdk", SdkInjection.TargetsFileName,
    ];

    /// <summary>The first of &lt;folder&gt;.clonecopy-compare, &lt;folder&gt;.clonecopy-compare-2, ... that holds no comparison.</summary>
    public static string DefaultFor(string repositoryFolder)
    {
        string first = repositoryFolder.TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar) + ".clonecopy-compare";
        string candidate = first;
        for (int number = 2; HoldsComparison(candidate); number++)
        {
            candidate = $"{first}-{number}";
        }

        return candidate;
    }

    public static bool HoldsComparison(string folder) =>
        Directory.Exists(folder) && OwnNames.Any(name => Path.Exists(Path.Combine(folder, name)));

    /// <summary>Makes sure the folder holds no earlier comparison: refuses, or with <paramref name="force"/> deletes its files.</summary>
    public static void Prepare(string folder, bool force)
    {
        if (!HoldsComparison(folder))
        {
            return;
        }

        if (!force)
        {
            throw new CompareFailure($"{folder} holds an earlier comparison ({string.Join(", ", OwnNames.Where(n => Path.Exists(Path.Combine(folder, n))))}). Give another --output, or add --force to replace it (its report, JSON, chart and logs are deleted; set-aside/ is kept).");
        }

        foreach (string name in OwnNames)
        {
            string path = Path.Combine(folder, name);
            if (Directory.Exists(path))
            {
                Directory.Delete(path, recursive: true);
            }
            else if (File.Exists(path))
            {
                File.Delete(path);
            }
        }
    }
}
