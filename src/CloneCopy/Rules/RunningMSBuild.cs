using System;
using System.IO;
using System.Reflection;

namespace CloneCopy;

/// <summary>
/// The MSBuild this task runs in, by the version of the Microsoft.Build.Framework assembly actually loaded in the
/// process (read once per process), never a version compiled in: the same task assembly loads in MSBuild 17.8 to
/// 18.x, and MSBuild's Copy changed between them. Every rule that follows the running MSBuild asks here (see
/// docs/fidelity.md, "MSBuild's Copy by version").
/// <para>
/// Microsoft.Build.Framework is the assembly to ask: every MSBuild loads it before any task (ITask lives there) and it
/// ships with the Copy task of the same build (all of MSBuild's assemblies carry one version). Its assembly version
/// is fixed at 15.1.0.0 for binding, so the informational version ("18.0.2+hash", "18.10.0-preview-…") is read,
/// else the file version ("18.0.2.51205").
/// </para>
/// </summary>
internal sealed class RunningMSBuild
{
    /// <summary>MSBuild 17.12 retired change wave 17.8: an existing writable destination is always deleted before writing.</summary>
    public static readonly Version DeleteBeforeWriteAlways = new(17, 12);

    /// <summary>
    /// MSBuild 18.4 (dotnet/msbuild #12914): a SourceFolders item is joined to the project directory and normalized only
    /// where it holds a "." segment (before, it was made a full, normalized path: "a//tree" was "a/tree").
    /// </summary>
    public static readonly Version SourceFoldersKeptAsSpelled = new(18, 4);

    /// <summary>MSBuild 18.4 (dotnet/msbuild #12914): a pair repeated for one destination is told by absolute paths, not by the item specs as given.</summary>
    public static readonly Version DuplicatesByAbsolutePath = new(18, 4);

    /// <summary>MSBuild 18.7 (dotnet/msbuild #13466): MSBUILDALWAYSRETRY and MSBuildUseSymboliclinksIfPossible read in Execute, not once per process.</summary>
    public static readonly Version EscapeHatchesReadInExecute = new(18, 7);

    /// <summary>MSBuild 18.8 (dotnet/msbuild #13479): access denied is retried off Windows, under change wave 18.7.</summary>
    public static readonly Version AccessDeniedRetriedOffWindows = new(18, 8);

    /// <summary>
    /// MSBuild 18.11 (dotnet/msbuild #14663, under change wave 18.11): FileMatcher's new enumeration lists a
    /// SourceFolders item breadth first (before, depth first, subdirectories first).
    /// </summary>
    public static readonly Version SourceFoldersListedBreadthFirst = new(18, 11);

    private static readonly Lazy<RunningMSBuild> Loaded = new(() => new RunningMSBuild(VersionOf(typeof(Microsoft.Build.Framework.ITask).Assembly)));

    /// <summary>A stand-in for another MSBuild, for tests (CopyOptions.MSBuild is the seam).</summary>
    internal RunningMSBuild(Version? version) => Version = version;

    /// <summary>The MSBuild of this process.</summary>
    public static RunningMSBuild Current => Loaded.Value;

    /// <summary>Major.minor.build of the loaded MSBuild; null when its assembly names no version (then the newest rules apply).</summary>
    public Version? Version { get; }

    /// <summary>
    /// True when the running MSBuild has the change that came with <paramref name="release"/>. An MSBuild whose
    /// version cannot be read is taken to have every change: the rules of the newest MSBuild compared are the
    /// ones CloneCopy has always followed, so an unreadable version changes nothing.
    /// </summary>
    public bool Has(Version release) => Version is null || Version >= release;

    /// <summary>
    /// Whether MSBuild's Copy retries "access denied" here: never on Windows (unless MSBUILDALWAYSRETRY, which the
    /// caller asks), and off Windows only from MSBuild 18.8 and only while change wave 18.7 is on. Before 18.8 an
    /// MSBuild's change waves answer "on" for a wave it does not know, so the version is asked first.
    /// </summary>
    public bool RetriesAccessDenied(bool windows) =>
        !windows && Has(AccessDeniedRetriedOffWindows) && MSBuildChangeWaves.AreFeaturesEnabled(MSBuildChangeWaves.Wave18_7);

    /// <summary>
    /// Whether MSBuild's Copy lists a SourceFolders item breadth first here: from 18.11, while change wave 18.11 is on
    /// (<paramref name="wave18_11On"/>; an MSBuild before 18.11 is not asked, it does not know the wave).
    /// </summary>
    public bool ListsSourceFoldersBreadthFirst(Func<bool> wave18_11On) => Has(SourceFoldersListedBreadthFirst) && wave18_11On();

    public override string ToString() => Version?.ToString() ?? "unknown";

    /// <summary>The version an MSBuild assembly says it is, as major.minor.build; null when it says none.</summary>
    internal static Version? VersionOf(Assembly assembly)
    {
        try
        {
            return Parse(assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion)
                ?? Parse(assembly.GetCustomAttribute<AssemblyFileVersionAttribute>()?.Version);
        }
        catch (Exception e) when (e is TypeLoadException or FileNotFoundException or FormatException or CustomAttributeFormatException)
        {
            return null;
        }
    }

    /// <summary>"18.0.2+abc", "18.10.0-preview-25411-02" and "18.0.2.51205" each give 18.0.2.</summary>
    internal static Version? Parse(string? text)
    {
        if (string.IsNullOrWhiteSpace(text))
        {
            return null;
        }

        int end = text!.IndexOfAny(['+', '-', ' ']);
        string[] parts = (end < 0 ? text : text.Substring(0, end)).Split('.');
        if (parts.Length < 2 || !int.TryParse(parts[0], out int major) || !int.TryParse(parts[1], out int minor))
        {
            return null;
        }

        return new Version(major, minor, parts.Length > 2 && int.TryParse(parts[2], out int build) ? build : 0);
    }
}
