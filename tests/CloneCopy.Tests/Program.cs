using System;
using System.Linq;
using CloneCopy.Tests.Differential;

namespace CloneCopy.Tests;

/// <summary>
/// The test binary's entry point: xunit.v3's own (as it generates it), plus one option for the scripts.
/// <c>--escape-hatch-lanes</c> prints the escape-hatch lanes' table (<see cref="EscapeHatchLanes"/>), so that
/// scripts/differential-lanes.sh takes the list of MSBuild's variables from the product instead of a copy.
/// <c>--msbuild-version</c> prints the version of the MSBuild this build of the suite runs against (the loaded
/// Microsoft.Build.Framework, as CloneCopy reads it: <see cref="RunningMSBuild"/>), which each lane's line names;
/// <c>--runtime-version</c> the .NET runtime it runs on (the msbuild-18.10/18.12 lanes run a self-contained .NET 11).
/// <c>--escape-hatches-under VERSION</c> prints what CloneCopy reads from MSBuild's retry and link switches in this
/// process as under that MSBuild (<see cref="EscapeHatchesUnderAnOldMSBuildTests"/>).
/// <c>--replace-loop</c> is the killed atomic replace's process (<see cref="AtomicReplace.ReplaceRaceDriver"/>); <c>--replace-until</c>
/// and <c>--read-loop</c> are the reader race's two processes (<see cref="AtomicReplace.ReaderRaceDriver"/>).
/// <c>--fault-copy</c> and <c>--fault-check</c> are the fault lane's (scripts/fault-lane.sh, <see cref="Faults.FaultLaneDriver"/>).
/// </summary>
internal static class Program
{
    public static int Main(string[] args)
    {
        if (args is ["--escape-hatch-lanes"])
        {
            foreach (string line in EscapeHatchLanes.Lines())
            {
                Console.WriteLine(line);
            }

            return 0;
        }

        if (args is ["--msbuild-version"])
        {
            Console.WriteLine(RunningMSBuild.Current);
            return 0;
        }

        if (args is ["--runtime-version"])
        {
            Console.WriteLine(Environment.Version);
            return 0;
        }

        if (args is ["--escape-hatches-under", string version])
        {
            // What CloneCopy's Copy takes from the escape hatches in a fresh process under an MSBuild of this version.
            var hatches = CopyEscapeHatches.FromEnvironment(CopyEnvironment.Process, new RunningMSBuild(Version.Parse(version)));
            Console.WriteLine($"AlwaysRetry={hatches.AlwaysRetry} UseSymbolicLinksByDefault={hatches.UseSymbolicLinksByDefault}");
            return 0;
        }

        if (args is ["--fault-copy", string task, string retries, string folder, .. string[] sources])
        {
            return Faults.FaultLaneDriver.Copy(task, int.Parse(retries, System.Globalization.CultureInfo.InvariantCulture), folder, sources);
        }

        if (args is ["--replace-loop", string writer, string atomic, string source, string destination, string rounds, .. string[] rest])
        {
            return AtomicReplace.ReplaceRaceDriver.ReplaceLoop(writer, atomic == "on", source, destination, int.Parse(rounds, System.Globalization.CultureInfo.InvariantCulture), rest is ["stop-at-written", ..], rest is [_, "lock-switch-unseen"]);
        }

        if (args is ["--replace-until", string rewriter, string on, string from, string to, string minimum, string started, string enough])
        {
            return AtomicReplace.ReaderRaceDriver.ReplaceUntil(rewriter, on == "on", from, to, int.Parse(minimum, System.Globalization.CultureInfo.InvariantCulture), started, enough);
        }

        if (args is ["--read-loop", string path, string length, string writing, string enoughFile, string reads, string stopFile])
        {
            var invariant = System.Globalization.CultureInfo.InvariantCulture;
            return AtomicReplace.ReaderRaceDriver.ReadLoop(path, long.Parse(length, invariant), writing, enoughFile, long.Parse(reads, invariant), stopFile);
        }

        if (args is ["--fault-check", string root])
        {
            return Faults.FaultLaneDriver.Check(root);
        }

        if (args.Any(arg => arg is "--server" or "--internal-msbuild-node"))
        {
            return Xunit.MicrosoftTestingPlatform.TestPlatformTestFramework.RunAsync(args, SelfRegisteredExtensions.AddSelfRegisteredExtensions).GetAwaiter().GetResult();
        }

        return Xunit.Runner.InProc.SystemConsole.ConsoleRunner.Run(args).GetAwaiter().GetResult();
    }
}
