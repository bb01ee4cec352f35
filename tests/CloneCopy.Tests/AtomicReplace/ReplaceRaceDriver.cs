using System;
using System.Diagnostics;
using System.IO;
using System.Threading;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>
/// The rewriting process of <see cref="KilledReplaceTests"/> (the test program's mode):
/// <c>--replace-loop TASK ATOMIC SOURCE DESTINATION ROUNDS [stop-at-written [lock-switch-unseen]]</c> rewrites DESTINATION
/// from SOURCE ROUNDS times, one Copy call each (MSBuild's own task, "msbuild", or CloneCopy's with CloneCopyAtomicReplace
/// "on" or "off"), and prints "rounds N failed N"; with stop-at-written it prints "written PATH" when the first
/// replacement is complete under its temporary name and then waits to be killed. lock-switch-unseen, in a process
/// started with .NET's locks switched off, makes its locks absent without CloneCopy being told
/// (<see cref="CloneCopy.AtomicReplaceHooks.LockSwitchUnseen"/>: a filesystem where flock fails silently).
/// </summary>
internal static class ReplaceRaceDriver
{
    public static int ReplaceLoop(string taskName, bool atomic, string source, string destination, int rounds, bool stopAtWritten, bool lockSwitchUnseen = false)
    {
        CloneCopy.AtomicReplaceHooks.LockSwitchUnseen = lockSwitchUnseen;
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
}
