using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// What the suite asserts instead of sameness where the MSBuild it runs against (the loaded Microsoft.Build.Framework,
/// <see cref="RunningMSBuild"/>) is older than a change CloneCopy does not follow back: the intended differences of
/// docs/fidelity.md's table "MSBuild's Copy by version", each with its reason. Against the SDK's MSBuild (18.9 here)
/// none applies. Each is recognised by what happened (both trees, the specs), not by a scenario's name, so that it
/// holds for the generated cases too; and each asserts the documented difference itself, so it cannot hide another.
/// </summary>
public static class OlderMSBuild
{
    /// <summary>The version of the MSBuild the suite runs against.</summary>
    public static Version? Running => RunningMSBuild.Current.Version;

    /// <summary>True when the MSBuild the suite runs against predates <paramref name="release"/>.</summary>
    public static bool Before(Version release) => !RunningMSBuild.Current.Has(release);

    /// <summary>MSBuild 18.4 (dotnet/msbuild #13120): an empty item spec is MSB3021 for that item.</summary>
    public static readonly Version EmptySpecIsAnError = new(18, 4);

    /// <summary>MSBuild 18.4 (dotnet/msbuild #12914): a symbolic link is made to the source's full path.</summary>
    public static readonly Version LinksToFullPaths = new(18, 4);

    /// <summary>MSBuild 18.3 (dotnet/msbuild #12147): destinations that differ only in case are two files on a case-sensitive system.</summary>
    public static readonly Version CaseSensitiveDestinations = new(18, 3);

    /// <summary>
    /// Before 18.4 an empty item spec throws out of MSBuild's Copy ("Parameter "filename" cannot have zero length": the
    /// task fails with MSB4018, and on a copy thread the exception ends the whole process). MSBuild's side is not run;
    /// CloneCopy's must do what 18.4 and later do, which the scenario pins.
    /// </summary>
    public static bool EndsMSBuildsCopy(CopyScenario scenario) =>
        Before(EmptySpecIsAnError)
        && (scenario.Parameters.SourceFiles ?? []).Concat(scenario.Parameters.DestinationFiles ?? []).Concat(scenario.Parameters.SourceFolders ?? []).Any(spec => spec.Length == 0);

    /// <summary>
    /// Before 18.4 MSBuild's Copy makes a symbolic link to the source as spelled: a relative spec gives a link relative
    /// to the link's own folder, which dangles unless that is the project directory. CloneCopy links to the full path,
    /// as 18.4 and later do. Returns MSBuild's snapshot with each such line ("out/a.txt -> a.txt", where CloneCopy's is
    /// "out/a.txt -> &lt;root&gt;/a.txt") as CloneCopy's, so that everything else is still compared.
    /// </summary>
    public static string WithLinksToFullPaths(string builtIn, string cloneCopy)
    {
        if (!Before(LinksToFullPaths))
        {
            return builtIn;
        }

        var candidates = new HashSet<string>(cloneCopy.Split('\n'), StringComparer.Ordinal);
        var linkedTo = new HashSet<string>(StringComparer.Ordinal);
        string[] lines = builtIn.Split('\n').Select(line =>
        {
            int arrow = line.IndexOf(" -> ", StringComparison.Ordinal);
            if (arrow < 0 || line[arrow + 4] == '/' || line.AsSpan(arrow + 4).StartsWith("<root>", StringComparison.Ordinal))
            {
                return line;
            }

            string target = line.Substring(arrow + 4);
            string asCloneCopy = $"{line.Substring(0, arrow)} -> {FullPath(target)}";
            if (!candidates.Contains(asCloneCopy))
            {
                return line;
            }

            linkedTo.Add(FullPath(target).Substring("<root>/".Length).TrimEnd('/'));
            return asCloneCopy;
        }).ToArray();

        // Through a link that resolves, the read-only rule of 18.4 and later (a read-only source leaves a writable
        // destination) makes the linked source itself writable; through 18.0's dangling link it changes nothing. So a
        // linked source may differ by its owner's write bit, and by nothing else.
        var cloneCopyByPath = cloneCopy.Split('\n').ToLookup(PathOf, StringComparer.Ordinal);
        for (int i = 0; i < lines.Length; i++)
        {
            if (linkedTo.Contains(PathOf(lines[i])) && cloneCopyByPath[PathOf(lines[i])].SingleOrDefault() is string other
                && other.Replace("UserWrite, ", string.Empty, StringComparison.Ordinal) == lines[i].Replace("UserWrite, ", string.Empty, StringComparison.Ordinal))
            {
                lines[i] = other;
            }
        }

        return string.Join("\n", lines);
    }

    /// <summary>"./g/../a.txt" as "&lt;root&gt;/a.txt": the full path CloneCopy links to, in the snapshot's spelling.</summary>
    private static string FullPath(string relative)
    {
        const string Root = "/clonecopy-snapshot-root";
        return string.Concat("<root>", Path.GetFullPath(Path.Combine(Root, relative)).AsSpan(Root.Length));
    }

    /// <summary>
    /// Before 18.3 MSBuild's Copy compares destinations without case: of two sources that differ only in case, copied
    /// into one folder, it writes one and silently drops the other. Recognised as CloneCopy's tree holding files that
    /// MSBuild's lacks while MSBuild's holds a file of the same name but for case beside each; returns those files
    /// (CloneCopy's snapshot lines), or none. The caller then compares the trees without them, and not the outputs and
    /// events, which differ by those copies.
    /// </summary>
    public static IReadOnlyList<string> DroppedCaseVariants(string builtIn, string cloneCopy)
    {
        if (!Before(CaseSensitiveDestinations))
        {
            return [];
        }

        var builtInPaths = builtIn.Split('\n').Select(PathOf).ToHashSet(StringComparer.Ordinal);
        var dropped = cloneCopy.Split('\n')
            .Where(line => !builtInPaths.Contains(PathOf(line)))
            .ToList();
        bool allVariants = dropped.Count > 0 && dropped.All(line =>
            builtInPaths.Any(other => !other.Equals(PathOf(line), StringComparison.Ordinal) && other.Equals(PathOf(line), StringComparison.OrdinalIgnoreCase)));
        return allVariants ? dropped : [];
    }

    /// <summary>The entry's path in a snapshot line ("out/a.txt size=…", "out/", "out/a -> b").</summary>
    private static string PathOf(string line)
    {
        int end = line.IndexOf(" -> ", StringComparison.Ordinal);
        end = end >= 0 ? end : line.IndexOf(' ');
        return end >= 0 ? line.Substring(0, end) : line;
    }

    /// <summary>
    /// The snapshot without the given lines, and without link counts: a dropped hard link also leaves its source with
    /// one link fewer in MSBuild's tree.
    /// </summary>
    public static string Without(string snapshot, IReadOnlyList<string> lines) =>
        WithoutLinkCounts(string.Join("\n", snapshot.Split('\n').Where(line => !lines.Contains(line))));

    /// <summary>A snapshot without its " links=N" fields.</summary>
    public static string WithoutLinkCounts(string snapshot) =>
        System.Text.RegularExpressions.Regex.Replace(snapshot, " links=[0-9]+", string.Empty);

    /// <summary>The version line tests print, so that a lane's output names the MSBuild it compared against.</summary>
    public static string Describe() => $"MSBuild {RunningMSBuild.Current} (Microsoft.Build.Framework from {Path.GetDirectoryName(typeof(Microsoft.Build.Framework.ITask).Assembly.Location)})";

    /// <summary>Asserts a scenario whose MSBuild side cannot run here has what later MSBuilds pin.</summary>
    public static void AssertPinned(CopyScenario scenario)
    {
        Assert.True(scenario.ExpectErrorCodes is not null, $"{scenario.Name}: MSBuild {RunningMSBuild.Current} cannot run it, so it must pin what later MSBuilds do");
    }
}
