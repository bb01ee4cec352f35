using System.Collections.Generic;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// The scenarios each of MSBuild's escape hatches changes, for the "hatches" differential lane
/// (scripts/differential-lanes.sh runs each variable with the values 1, true and empty over these scenarios).
/// The variables are the product's own list (<see cref="CopyEscapeHatches.Variables"/>); the test binary prints
/// this table (<c>CloneCopy.Tests --escape-hatch-lanes</c>), and a test fails when a variable has no scenarios.
/// </summary>
public static class EscapeHatchLanes
{
    /// <summary>Variable name → a regular expression on scenario names.</summary>
    public static IReadOnlyDictionary<string, string> ScenariosByVariable { get; } = new Dictionary<string, string>
    {
        [CopyEscapeHatches.CopyWithoutDeleteVariable] = "hard-link|hard link|symbolic link to|dangling symbolic|read-only destination|overwrite a different destination|then the source changes$",
        [CopyEscapeHatches.AlwaysRetryVariable] = "read-only destination|always retry|destination parent is a file|destination folder is a file|not writable|not readable|held open",
        [CopyEscapeHatches.AlwaysOverwriteReadOnlyFilesVariable] = "read-only",
        [CopyEscapeHatches.UseSymbolicLinksVariable] = "symbolic link|hard link|one file to destination files|^source folder$|several files to a new nested folder|missing source among others",
        [CopyEscapeHatches.ParallelismVariable] = "twice|two sources|two spellings|duplicate|missing source|many files|A, B, A",
    };

    /// <summary>One line per variable, in the product's order: "NAME regex".</summary>
    public static IEnumerable<string> Lines()
    {
        foreach (string variable in CopyEscapeHatches.Variables)
        {
            yield return $"{variable} {(ScenariosByVariable.TryGetValue(variable, out string? scenarios) ? scenarios : string.Empty)}";
        }
    }
}
