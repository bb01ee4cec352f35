using System;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// MSBuild's read-only rules as users meet them. Root writes through read-only bits, so as root a mistake in
/// them (a read-only destination deleted or written without OverwriteReadOnlyFiles, a copy of a read-only
/// source left read-only) changes nothing anyone sees. Run as root, the test runs itself again in a child
/// process as uid 65534 (setpriv, as scripts/differential-lanes.sh does); as any other user it checks the
/// rules directly, holding CloneCopy's Copy to MSBuild's on fresh files for each rule.
/// </summary>
public sealed class ReadOnlyRulesAsUnprivilegedUserTests
{
    private const UnixFileMode ReadOnlyMode = UnixFileMode.UserRead | UnixFileMode.GroupRead | UnixFileMode.OtherRead;

    [Fact]
    public void The_read_only_rules_hold_for_an_unprivileged_user()
    {
        if (ProcessRunner.Run("id", "-u").Output.Trim() == "0")
        {
            RunAsUnprivilegedUser(nameof(The_read_only_rules_hold_for_an_unprivileged_user));
            return;
        }

        // A read-only destination is neither deleted nor written without OverwriteReadOnlyFiles: the copy fails.
        var kept = Both(overwrite: false, readOnlySource: false, readOnlyDestination: true);
        Assert.False(kept.Succeeded, kept.Log);
        Assert.Equal(TestFiles.Content(10, 9), File.ReadAllBytes(kept.Destination));

        // With OverwriteReadOnlyFiles it is replaced.
        var replaced = Both(overwrite: true, readOnlySource: false, readOnlyDestination: true);
        Assert.True(replaced.Succeeded, replaced.Log);
        Assert.Equal(TestFiles.Content(300, 1), File.ReadAllBytes(replaced.Destination));

        // A copy of a read-only source is made writable, so the next build can replace it.
        var fromReadOnly = Both(overwrite: false, readOnlySource: true, readOnlyDestination: false);
        Assert.True(fromReadOnly.Succeeded, fromReadOnly.Log);
        Assert.True(File.GetUnixFileMode(fromReadOnly.Destination).HasFlag(UnixFileMode.UserWrite), fromReadOnly.Log);
    }

    /// <summary>Runs MSBuild's Copy and CloneCopy's on two fresh folders alike; requires the same outcome, codes, content and mode.</summary>
    private static (bool Succeeded, string Destination, string Log) Both(bool overwrite, bool readOnlySource, bool readOnlyDestination)
    {
        var results = new[] { (ITask)new Microsoft.Build.Tasks.Copy(), new CloneCopy.Copy() }.Select(task =>
        {
            string folder = Directory.CreateTempSubdirectory("clonecopy-readonly").FullName;
            string source = TestFiles.Write(Path.Combine(folder, "a.txt"), 300, seed: 1, mode: readOnlySource ? ReadOnlyMode : null);
            string destination = Path.Combine(folder, "o.txt");
            if (readOnlyDestination)
            {
                TestFiles.Write(destination, 10, seed: 9, mode: ReadOnlyMode);
            }

            var engine = new TestBuildEngine();
            task.BuildEngine = engine;
            Set(task, "SourceFiles", new ITaskItem[] { new TaskItem(source) });
            Set(task, "DestinationFiles", new ITaskItem[] { new TaskItem(destination) });
            Set(task, "OverwriteReadOnlyFiles", overwrite);
            Set(task, "Retries", 0);
            bool succeeded = task.Execute();
            string codes = string.Join(",", engine.Errors.Select(e => e.Code).Concat(engine.Warnings.Select(w => w.Code)));
            return (Succeeded: succeeded, Destination: destination, Codes: codes, Content: File.ReadAllBytes(destination),
                Mode: File.GetUnixFileMode(destination), Log: $"{task.GetType().FullName}:{Environment.NewLine}{engine.Describe()}");
        }).ToArray();

        var (builtIn, cloneCopy) = (results[0], results[1]);
        string log = builtIn.Log + Environment.NewLine + cloneCopy.Log;
        Assert.True(builtIn.Succeeded == cloneCopy.Succeeded, log);
        Assert.True(builtIn.Codes == cloneCopy.Codes, log);
        Assert.True(builtIn.Content.SequenceEqual(cloneCopy.Content), log);
        Assert.True(builtIn.Mode == cloneCopy.Mode, $"modes {builtIn.Mode} and {cloneCopy.Mode}{Environment.NewLine}{log}");
        return (cloneCopy.Succeeded, cloneCopy.Destination, log);
    }

    /// <summary>This test again, in a new process of this test assembly, as uid 65534 with a home of its own.</summary>
    private static void RunAsUnprivilegedUser(string method)
    {
        string home = Directory.CreateTempSubdirectory("clonecopy-nobody-home").FullName;
        try
        {
            ProcessRunner.RunChecked("chown", $"65534:65534 \"{home}\"");
            string assembly = typeof(ReadOnlyRulesAsUnprivilegedUserTests).Assembly.Location;
            string environment = $"HOME=\"{home}\" DOTNET_CLI_HOME=\"{home}\" DOTNET_NOLOGO=1 PATH=\"{Environment.GetEnvironmentVariable("PATH")}\" CI=\"{Environment.GetEnvironmentVariable("CI")}\"";
            (int exitCode, string output) = ProcessRunner.Run("setpriv",
                $"--reuid=65534 --regid=65534 --clear-groups env -i {environment} dotnet \"{assembly}\" -noLogo -noColor -method \"{typeof(ReadOnlyRulesAsUnprivilegedUserTests).FullName}.{method}\"");
            Assert.True(exitCode == 0, $"as uid 65534:{Environment.NewLine}{output}");
            Assert.Contains("Total: 1, Errors: 0, Failed: 0, Skipped: 0", output);
        }
        finally
        {
            Directory.Delete(home, recursive: true);
        }
    }

    private static void Set(ITask task, string property, object value) => task.GetType().GetProperty(property)!.SetValue(task, value);
}
