using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Differential;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// Rules of MSBuild's Copy that only an unprivileged user, or a process started with one of MSBuild's
/// per-process switches, can see: root writes through read-only modes and lists unreadable folders, and
/// MSBuild reads change waves and MSBUILDCOPYWITHOUTDELETE once per process. Without these tests only the
/// unprivileged differential lanes (scripts/differential-lanes.sh) ran them, so a contributor who broke one
/// and ran the linux suite saw nothing. Each test here names one rule and holds CloneCopy's Copy to
/// MSBuild's on the differential scenarios that show it (the same scenarios, the same comparison and pins as
/// the lanes), on ext4 and on a reflink XFS. Run as root, a test runs itself again in a child process of
/// this test assembly as uid 65534 (setpriv, as the lanes do) with the environment the rule needs, on
/// folders of the run's loop filesystems given to that user.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class UnprivilegedLaneRulesTests
{
    /// <summary>Set in the child process to the test it runs: there the rule is checked, not delegated again.</summary>
    private const string ChildVariable = "CLONECOPY_UNPRIVILEGED_TEST";

    /// <summary>Set in the child process to the scenarios of the call it runs (a test may start several children).</summary>
    private const string ScenariosVariable = "CLONECOPY_UNPRIVILEGED_SCENARIOS";

    private readonly LoopFilesystems _filesystems;

    public UnprivilegedLaneRulesTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    /// <summary>
    /// From change wave 18.7 on, MSBuild's Copy retries "access denied" on Unix: a read-only file in a package
    /// cache reached through a symbolic link fails after a retry (MSB3026, then MSB3027 and MSB3021).
    /// </summary>
    [FilesystemFact]
    public void Access_denied_is_retried_with_change_wave_18_7_on() =>
        AsUnprivilegedUser(nameof(Access_denied_is_retried_with_change_wave_18_7_on), new Dictionary<string, string>(),
            "read-only destination symbolic-linked to a package cache file");

    /// <summary>
    /// With MSBUILDDISABLEFEATURESFROMVERSION=18.7 the same access denied is final at once (MSB3021 alone):
    /// MSBuild reads change waves once per process, so only a process started so shows it.
    /// </summary>
    [FilesystemFact]
    public void Access_denied_is_not_retried_with_change_waves_from_18_7_off() =>
        AsUnprivilegedUser(nameof(Access_denied_is_not_retried_with_change_waves_from_18_7_off),
            new Dictionary<string, string> { [MSBuildChangeWaves.DisableFeaturesFromVersionVariable] = "18.7" },
            "read-only destination symbolic-linked to a package cache file");

    /// <summary>
    /// A read-only destination that is a hard or symbolic link into a package cache: MSBuild's Copy fails with
    /// access denied for a user the mode stops, and so must CloneCopy (it replaces the link only where the write
    /// would go through, as for root); with OverwriteReadOnlyFiles both replace it.
    /// </summary>
    [FilesystemFact]
    public void A_read_only_destination_linked_into_a_package_cache_is_refused_as_by_MSBuilds_Copy() =>
        AsUnprivilegedUser(nameof(A_read_only_destination_linked_into_a_package_cache_is_refused_as_by_MSBuilds_Copy), new Dictionary<string, string>(),
            "read-only destination hard-linked to a package cache file",
            "read-only destination symbolic-linked to a package cache file",
            "read-only destination symbolic-linked to a package cache file, with overwrite");

    /// <summary>
    /// MSBUILDALWAYSOVERWRITEREADONLYFILES, MSBUILDALWAYSRETRY and MSBuildUseSymboliclinksIfPossible count when
    /// present at all, even empty (MSBuild tests them for null). One process per variable, each given it empty,
    /// each running a scenario that variable changes.
    /// </summary>
    [FilesystemFact]
    public void Escape_hatches_set_to_an_empty_value_are_honoured()
    {
        foreach (var (variable, scenario) in EmptyHatchScenarios)
        {
            AsUnprivilegedUser(nameof(Escape_hatches_set_to_an_empty_value_are_honoured), new Dictionary<string, string> { [variable] = string.Empty }, scenario);
        }
    }

    /// <summary>
    /// After a hard link fails, MSBuild's Copy says one of two things: that it tries a symbolic link instead
    /// (UseSymboliclinksIfPossible) or that it copies the file instead. With MSBUILDCOPYWITHOUTDELETE=1 an
    /// existing destination is kept, so link() meets it and fails: both messages, in the process variable's lane.
    /// </summary>
    [FilesystemFact]
    public void After_a_failed_hard_link_the_message_says_what_is_tried_next() =>
        AsUnprivilegedUser(nameof(After_a_failed_hard_link_the_message_says_what_is_tried_next),
            new Dictionary<string, string> { [CopyEscapeHatches.CopyWithoutDeleteVariable] = "1" },
            "hard link over an existing destination",
            "hard link or else a symbolic link over an existing destination");

    /// <summary>A folder under SourceFolders the user may not list contributes nothing, silently (MSBuild's FileMatcher).</summary>
    [FilesystemFact]
    public void An_unreadable_subfolder_under_SourceFolders_contributes_nothing() =>
        AsUnprivilegedUser(nameof(An_unreadable_subfolder_under_SourceFolders_contributes_nothing), new Dictionary<string, string>(),
            "source folder with an unreadable subfolder");

    /// <summary>The variable each empty-value process is given, and the scenario it runs.</summary>
    private static readonly (string Variable, string Scenario)[] EmptyHatchScenarios =
    [
        (CopyEscapeHatches.AlwaysOverwriteReadOnlyFilesVariable, "read-only destination"),
        (CopyEscapeHatches.AlwaysRetryVariable, "destination parent is a file, no retries"),
        (CopyEscapeHatches.UseSymbolicLinksVariable, "one file to destination files"),
    ];

    /// <summary>
    /// In the child (not root, started by this call with <paramref name="environment"/>): the scenarios, on ext4
    /// and XFS. Anywhere else: this call again in a child process, as uid 65534 when running as root.
    /// </summary>
    private void AsUnprivilegedUser(string method, IReadOnlyDictionary<string, string> environment, params string[] scenarios)
    {
        bool root = CloneCopy.Platform.Unix.UnixLibC.GetEUid() == 0;
        string key = string.Join("|", scenarios);
        if (!root && Environment.GetEnvironmentVariable(ChildVariable) == method)
        {
            if (Environment.GetEnvironmentVariable(ScenariosVariable) != key)
            {
                return; // another call of this test, which another child runs
            }

            // The process must have what it was started with, or the scenarios would test something else.
            foreach (var (name, value) in environment)
            {
                Assert.True(Environment.GetEnvironmentVariable(name) == value, $"{name} is not '{value}' in this process");
            }

            foreach (string name in scenarios)
            {
                foreach (FilesystemKind kind in new[] { FilesystemKind.Ext4, FilesystemKind.Xfs })
                {
                    DifferentialRunner.AssertSameBehaviour(CopyScenarios.Named(name), _filesystems.NewDirectory(kind, "unprivileged"));
                }
            }

            return;
        }

        // Folders of this run's filesystems for the child, given to uid 65534 when it runs as that user.
        string ext4 = _filesystems.NewDirectory(FilesystemKind.Ext4, "unprivileged");
        string xfs = _filesystems.NewDirectory(FilesystemKind.Xfs, "unprivileged");
        string home = Directory.CreateTempSubdirectory("clonecopy-nobody-home").FullName;
        try
        {
            if (root)
            {
                ProcessRunner.RunChecked("chown", $"65534:65534 \"{ext4}\" \"{xfs}\" \"{home}\"");
            }

            var start = new ProcessStartInfo(root ? "setpriv" : "env") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (string argument in root ? ["--reuid=65534", "--regid=65534", "--clear-groups", "env"] : Array.Empty<string>())
            {
                start.ArgumentList.Add(argument);
            }

            // A clean environment, as the lanes start theirs: only what the child needs, and the rule's variables.
            start.ArgumentList.Add("-i");
            foreach (string variable in new[]
            {
                $"HOME={home}", $"DOTNET_CLI_HOME={home}", "DOTNET_NOLOGO=1", $"PATH={Environment.GetEnvironmentVariable("PATH")}",
                $"CI={Environment.GetEnvironmentVariable("CI")}", $"{ChildVariable}={method}", $"{ScenariosVariable}={key}",
                $"CLONECOPY_TEST_EXT4={ext4}", $"CLONECOPY_TEST_XFS={xfs}", $"CLONECOPY_TEST_XFS2={xfs}", $"CLONECOPY_TEST_BTRFS={xfs}",
            }.Concat(environment.Select(e => $"{e.Key}={e.Value}")))
            {
                start.ArgumentList.Add(variable);
            }

            foreach (string argument in new[] { "dotnet", typeof(UnprivilegedLaneRulesTests).Assembly.Location, "-noLogo", "-noColor", "-method", $"{typeof(UnprivilegedLaneRulesTests).FullName}.{method}" })
            {
                start.ArgumentList.Add(argument);
            }

            (int exitCode, string output) = ProcessRunner.Run(start, timeoutSeconds: 300);
            string who = root ? "uid 65534" : Environment.UserName;
            Assert.True(exitCode == 0, $"as {who} with [{string.Join(" ", environment.Select(e => $"{e.Key}='{e.Value}'"))}]:{Environment.NewLine}{output}");
            Assert.Contains("Total: 1, Errors: 0, Failed: 0, Skipped: 0", output);
        }
        finally
        {
            Directory.Delete(home, recursive: true);
            foreach (string folder in new[] { ext4, xfs })
            {
                DifferentialRunner.RemoveTree(folder);
            }
        }
    }
}
