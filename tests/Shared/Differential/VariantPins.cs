using System;
using System.Linq;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// What the built-in task is pinned to do in a process started with one of MSBuild's per-process switches
/// changed (the escape-hatch, always-retry and change-wave lanes). A scenario's own pins (outcome, error and
/// warning codes) hold there too, except where this table says the switch changes them; so both tasks
/// failing alike on a wrong code cannot pass in those lanes either. An entry names the switch,
/// the scenario and the pins that replace the scenario's own (null: that pin is not replaced).
/// </summary>
public static class VariantPins
{
    /// <summary>Not a variable: the suite runs against an MSBuild before 18.8 (OlderMSBuild), whose Copy never retries access denied off Windows.</summary>
    public const string BeforeAccessDeniedRetries = "MSBuild before 18.8";

    private const string TenRetries = "MSB3026,MSB3026,MSB3026,MSB3026,MSB3026,MSB3026,MSB3026,MSB3026,MSB3026,MSB3026";

    private static readonly (string Variable, string Scenario, bool? Success, string? Errors, string? Warnings)[] Changed =
    [
        // Written in place instead of replaced, the destination is the source's own file: .NET refuses to open it for
        // writing while it reads it ("being used by another process"), ten retries, then MSB3027 and MSB3021.
        ("MSBUILDCOPYWITHOUTDELETE", "copy onto a hard link of itself", false, "MSB3021,MSB3027", TenRetries),
        ("MSBUILDCOPYWITHOUTDELETE", "destination is a symbolic link to the source", false, "MSB3021,MSB3027", TenRetries),
        ("MSBUILDCOPYWITHOUTDELETE", "hard link across to an existing hard link of the source", false, "MSB3021,MSB3027", TenRetries),
        ("MSBUILDCOPYWITHOUTDELETE", "destination is a hard link of the source by the same name in another folder", false, "MSB3021,MSB3027", TenRetries),

        // Every failed attempt is retried, and each retry of an exception MSBuild would not retry says MSB3894 first.
        ("MSBUILDALWAYSRETRY", "destination parent is a file, with retries", null, null, "MSB3026,MSB3026,MSB3894,MSB3894,MSB3894"),
        ("MSBUILDALWAYSRETRY", "destination parent is a file, no retries", null, null, "MSB3894"),
        ("MSBUILDALWAYSRETRY", "destination folder is a file", null, null, "MSB3894"),

        // A symbolic link is made where a copy would have failed: MSBuild's Copy succeeds (and replaces the source
        // with a link to itself, which CloneCopy documents it does not do).
        ("MSBuildUseSymboliclinksIfPossible", "destination is the source through a symbolic link to its folder", true, null, null),

        // Told to overwrite read-only files, MSBuild's Copy makes the read-only linked destination writable and
        // replaces it, as an unprivileged user too (the owner may change a mode); so does CloneCopy.
        ("MSBUILDALWAYSOVERWRITEREADONLYFILES", "read-only destination hard-linked to a package cache file", true, string.Empty, string.Empty),
        ("MSBUILDALWAYSOVERWRITEREADONLYFILES", "read-only destination symbolic-linked to a package cache file", true, string.Empty, string.Empty),

        // Access denied through a read-only linked destination: with every retry, each attempt says MSB3894 and MSB3895
        // too; with change waves from 18.7 off, access denied is not retried on Unix (as uid 65534, as the lanes run).
        ("MSBUILDALWAYSRETRY", "read-only destination hard-linked to a package cache file", null, null, "MSB3894,MSB3895"),
        ("MSBUILDALWAYSRETRY", "read-only destination symbolic-linked to a package cache file", null, null, "MSB3026,MSB3894,MSB3894,MSB3895,MSB3895"),
        ("MSBUILDDISABLEFEATURESFROMVERSION", "read-only destination symbolic-linked to a package cache file", null, "MSB3021", string.Empty),
        // So it is under an MSBuild before 18.8 (the msbuild-18.0 lane), which never retries access denied.
        (BeforeAccessDeniedRetries, "read-only destination symbolic-linked to a package cache file", null, "MSB3021", string.Empty),

        // The single-threaded loop tries a missing source again for the second pair; the parallel loop does not.
        ("MSBUILDCOPYTASKPARALLELISM", "missing source listed twice", null, "MSB3030,MSB3030", null),
        ("MSBUILDCOPYTASKPARALLELISM", "missing source listed twice among others", null, "MSB3030,MSB3030", null),
    ];

    /// <summary>The scenarios the table names (each must exist, or its entry would pin nothing).</summary>
    public static string[] ScenarioNames => Changed.Select(c => c.Scenario).Distinct().ToArray();

    /// <summary>The switches this process was started with that change MSBuild's Copy (see <see cref="DifferentialRunner.VariantEnvironment"/>).</summary>
    public static string[] Switches() =>
        new[]
        {
            Environment.GetEnvironmentVariable("MSBUILDALWAYSRETRY") is not null ? "MSBUILDALWAYSRETRY" : null,
            Environment.GetEnvironmentVariable("MSBUILDALWAYSOVERWRITEREADONLYFILES") is not null ? "MSBUILDALWAYSOVERWRITEREADONLYFILES" : null,
            Environment.GetEnvironmentVariable("MSBuildUseSymboliclinksIfPossible") is not null ? "MSBuildUseSymboliclinksIfPossible" : null,
            Environment.GetEnvironmentVariable("MSBUILDCOPYWITHOUTDELETE") == "1" ? "MSBUILDCOPYWITHOUTDELETE" : null,
            Environment.GetEnvironmentVariable("MSBUILDCOPYTASKPARALLELISM") == "1" ? "MSBUILDCOPYTASKPARALLELISM" : null,
            !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("MSBUILDDISABLEFEATURESFROMVERSION")) ? "MSBUILDDISABLEFEATURESFROMVERSION" : null,
            OlderMSBuild.Before(RunningMSBuild.AccessDeniedRetriedOffWindows) ? BeforeAccessDeniedRetries : null,
        }.OfType<string>().ToArray();

    /// <summary>The pins for this scenario in this process: its own, with what the process's switches change replaced.</summary>
    public static (bool? Success, string? Errors, string? Warnings) For(CopyScenario scenario)
    {
        (bool? success, string? errors, string? warnings) = (scenario.ExpectSuccess, scenario.ExpectErrorCodes, scenario.ExpectWarningCodes);
        foreach (string variable in Switches())
        {
            foreach (var entry in Changed.Where(c => c.Variable == variable && c.Scenario == scenario.Name))
            {
                success = entry.Success ?? success;
                errors = entry.Errors ?? errors;
                warnings = entry.Warnings ?? warnings;
            }
        }

        return (success, errors, warnings);
    }
}
