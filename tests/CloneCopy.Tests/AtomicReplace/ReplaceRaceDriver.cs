using System;
using System.Diagnostics;
using System.IO;
using System.Threading;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>
/// The two processes of the atomic-replace race (the test program's modes, started by <see cref="ReaderRaceTests"/> and
/// <see cref="KilledReplaceTests"/>):
/// <c>--replace-loop TASK ATOMIC SOURCE DESTINATION ROUNDS [stop-at-written]</c> rewrites DESTINATION from SOURCE ROUNDS
/// times, one Copy call each (MSBuild's own task, "msbuild", or CloneCopy's with CloneCopyAtomicReplace "on" or "off"),
/// and prints "rounds N failed N"; with stop-at-written it prints "written PATH" when the first replacement is complete
/// under its temporary name and then waits to be killed.
/// <c>--read-loop PATH LENGTH STOPFILE</c> opens and reads PATH whole, as fast as it can, until STOPFILE exists, and
/// prints "ready" when it starts reading and, at the end, "reads N missing N short N": missing when the open found no file, short when it read fewer than LENGTH bytes.
/// </summary>
internal static class ReplaceRaceDriver
{
    public static int ReplaceLoop(string taskName, bool atomic, string source, string destination, int rounds, bool stopAtWritten)
    {
        if (stopAtWritten)
        {
            CloneCopy.AtomicReplaceHooks.OnStep = (step, path) =>
            {
                Console.Out.WriteLine($"written {path}");
                Console.Out.Flush();
                Thread.Sleep(Timeout.Infinite);
            };
        }

        int failed = 0;
        for (int round = 0; round < rounds; round++)
        {
            ITask task = taskName == "msbuild"
                ? new Microsoft.Build.Tasks.Copy { SourceFiles = [new TaskItem(source)], DestinationFiles = [new TaskItem(destination)], Retries = 0 }
                : new CloneCopy.Copy { SourceFiles = [new TaskItem(source)], DestinationFiles = [new TaskItem(destination)], Retries = 0, AtomicReplaceSetting = atomic };
            task.BuildEngine = new TestBuildEngine();
            if (!task.Execute())
            {
                failed++;
            }
        }

        Console.Out.WriteLine($"rounds {rounds} failed {failed}");
        return 0;
    }

    public static int ReadLoop(string path, long length, string stopFile)
    {
        var buffer = new byte[length + 1];
        long reads = 0, missing = 0, shortReads = 0;
        var clock = Stopwatch.StartNew();
        Console.Out.WriteLine("ready");
        Console.Out.Flush();
        while (!File.Exists(stopFile) && clock.Elapsed < TimeSpan.FromMinutes(2))
        {
            reads++;
            try
            {
                using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1, FileOptions.None);
                long total = 0;
                int read;
                while ((read = stream.Read(buffer, (int)total, buffer.Length - (int)total)) > 0)
                {
                    total += read;
                }

                if (total < length)
                {
                    shortReads++;
                }
            }
            catch (FileNotFoundException)
            {
                missing++;
            }
        }

        Console.Out.WriteLine($"reads {reads} missing {missing} short {shortReads}");
        return 0;
    }
}
