using System;
using System.Diagnostics;
using System.IO;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>
/// The two processes of <see cref="ReaderRaceTests"/> (the test program's modes). They agree through files on how long
/// the race lasts, so that it holds as many reads during the rewriting as it needs however slow or loaded the machine
/// is (a count it forces, not a time it hopes for):
/// <c>--replace-until TASK ATOMIC SOURCE DESTINATION ROUNDS STARTED ENOUGH</c> rewrites DESTINATION from SOURCE, one
/// Copy call each (MSBuild's own task, "msbuild", or CloneCopy's with CloneCopyAtomicReplace "on" or "off"), at least
/// ROUNDS times and then until the file ENOUGH exists, makes the file STARTED once the first round is done (its
/// loading and compiling, long on a loaded machine, replace nothing), and prints "rounds N failed N".
/// <c>--read-loop PATH LENGTH STARTED ENOUGH READS STOP</c> prints "ready", then opens and reads PATH whole, as fast as
/// it can, until the file STOP exists; a read begun once STARTED exists is one during the rewriting, and at READS of
/// those it makes ENOUGH (which lets the writer stop: every counted read began while the writer was rewriting). It
/// prints "reads N during N missing N short N": missing when the open found no file, short when it read fewer than
/// LENGTH bytes.
/// </summary>
internal static class ReaderRaceDriver
{
    /// <summary>A bound for a machine so loaded that it cannot go on at all: the test then fails on its counts.</summary>
    private static readonly TimeSpan GiveUpAfter = TimeSpan.FromMinutes(10);

    public static int ReplaceUntil(string taskName, bool atomic, string source, string destination, int rounds, string started, string enough)
    {
        int done = 0, failed = 0;
        var clock = Stopwatch.StartNew();
        while (done < rounds || (!File.Exists(enough) && clock.Elapsed < GiveUpAfter))
        {
            ITask task = taskName == "msbuild"
                ? new Microsoft.Build.Tasks.Copy { SourceFiles = [new TaskItem(source)], DestinationFiles = [new TaskItem(destination)], Retries = 0 }
                : new CloneCopy.Copy { SourceFiles = [new TaskItem(source)], DestinationFiles = [new TaskItem(destination)], Retries = 0, AtomicReplaceSetting = atomic };
            task.BuildEngine = new TestBuildEngine();
            if (!task.Execute())
            {
                failed++;
            }

            if (++done == 1)
            {
                File.WriteAllText(started, string.Empty);
            }
        }

        Console.Out.WriteLine($"rounds {done} failed {failed}");
        return 0;
    }

    public static int ReadLoop(string path, long length, string started, string enough, long readsWanted, string stop)
    {
        var buffer = new byte[length + 1];
        long reads = 0, during = 0, missing = 0, shortReads = 0;
        bool writing = false;
        var clock = Stopwatch.StartNew();
        Console.Out.WriteLine("ready");
        Console.Out.Flush();
        while (!File.Exists(stop) && clock.Elapsed < GiveUpAfter)
        {
            // Looked at before the read begins: a read counted as during the rewriting never began before it.
            writing = writing || File.Exists(started);
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

            if (writing && ++during == readsWanted)
            {
                File.WriteAllText(enough, string.Empty);
            }
        }

        // Given up or stopped early: the writer must not wait for reads that will not come.
        File.WriteAllText(enough, string.Empty);
        Console.Out.WriteLine($"reads {reads} during {during} missing {missing} short {shortReads}");
        return 0;
    }
}
