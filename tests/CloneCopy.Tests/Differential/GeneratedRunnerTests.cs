using System;
using System.IO;
using System.Net.Sockets;
using System.Threading;
using CloneCopy.Tests.Differential.Generated;
using Microsoft.Build.Framework;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// How the generated runner judges what it meets: a difference is reported only when it recurs on
/// fresh trees, and an exception from the harness is reported apart, with its step, side and stack, never as a
/// difference of CloneCopy's. Candidates here are MSBuild's own Copy with one thing changed, so that everything
/// else agrees.
/// </summary>
public sealed class GeneratedRunnerTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-runner").FullName;

    public void Dispose()
    {
        Candidates.LeavesSocket.CloseAll();
        Directory.Delete(_directory, recursive: true);
    }

    /// <summary>One file copied into a folder: quick to run and to shrink.</summary>
    private static GeneratedCase SmallCase(int seed, string file = "g/a.txt") => new(
        seed,
        [new TreeEntry(EntryKind.File, file, 100, 1)],
        new CopyParameters { SourceFiles = [file], DestinationFolder = "out" });

    private GeneratedReport Run(GeneratedCase generated, Func<ITask> candidate) =>
        GeneratedDifferential.Run([generated], _directory, candidate, new GeneratedReport(generated.Seed, 1));

    [Fact]
    public void A_difference_that_does_not_recur_is_counted_and_printed_not_reported()
    {
        int runs = 0;
        GeneratedReport report = Run(SmallCase(7), () => new Candidates.WarnsWhen.Copy(() => Interlocked.Increment(ref runs) == 1));

        Assert.False(report.Failed, report.ToString());
        Assert.Equal([7], report.NotReproduced);
        Assert.Contains("outputs differ", report.ToString()); // its warning
        Assert.Contains("1 not reproduced (seeds 7)", report.Summary);
    }

    [Fact]
    public void A_difference_that_recurs_is_reported_shrunk()
    {
        GeneratedReport report = Run(SmallCase(8), () => new Candidates.WarnsWhen.Copy(() => true));

        Assert.True(report.Failed);
        string difference = Assert.Single(report.Differences);
        Assert.Contains("outputs differ", difference); // its warning
        Assert.DoesNotContain("g/a.txt", difference); // shrunk: the file and the source are not needed to differ
        Assert.Empty(report.HarnessFailures);
    }

    [Fact]
    public void An_exception_from_the_candidates_Execute_is_a_difference_of_the_candidates()
    {
        GeneratedReport report = Run(SmallCase(9), () => new Candidates.Throwing.Copy());

        string difference = Assert.Single(report.Differences);
        Assert.Contains("CloneCopy.Tests.Differential.Candidates+Throwing+Copy's Execute threw (step: run)", difference);
        Assert.Contains("at CloneCopy.Tests.Differential.Candidates.Throwing.Copy.Execute", difference);
        Assert.Empty(report.HarnessFailures);
    }

    /// <summary>
    /// A socket left in the candidate's tree once made the snapshot throw (a harness failure); since the snapshot
    /// describes special files (named pipes among them), it is an entry MSBuild's tree lacks: the candidate's
    /// difference, reproduced and reported, and no harness failure.
    /// </summary>
    [Fact]
    public void A_socket_left_in_the_candidates_tree_is_its_difference_not_a_harness_failure()
    {
        GeneratedReport report = Run(SmallCase(10), () => new Candidates.LeavesSocket.Copy());

        Assert.True(report.Failed);
        Assert.Empty(report.HarnessFailures);
        string difference = Assert.Single(report.Differences);
        Assert.Contains("socket socket", difference); // the snapshot's line: the entry "socket", of kind socket
    }

    [Fact]
    public void A_tree_the_harness_cannot_make_is_a_harness_failure_not_MSBuilds_Copy_racing()
    {
        GeneratedReport report = Run(SmallCase(11, file: "g/nul\0.txt"), () => new CloneCopy.Copy());

        string failure = Assert.Single(report.HarnessFailures);
        Assert.Contains("the harness failed (step: tree creation, for MSBuild's Copy)", failure);
        Assert.Empty(report.SkippedNondeterministic);
        Assert.Empty(report.Differences);
    }
}

/// <summary>
/// Candidates: MSBuild's Copy with one thing changed. Each class is named Copy, as its events name their sender
/// by the task's class name; the runner names them by their full names.
/// </summary>
public static class Candidates
{
    /// <summary>Logs one warning more when <c>differ</c> says so.</summary>
    public static class WarnsWhen
    {
        public sealed class Copy(Func<bool> differ) : Microsoft.Build.Tasks.Copy
        {
            public override bool Execute()
            {
                if (differ())
                {
                    Log.LogWarning("a difference");
                }

                return base.Execute();
            }
        }
    }

    public static class Throwing
    {
        public sealed class Copy : Microsoft.Build.Tasks.Copy
        {
            public override bool Execute() => throw new InvalidOperationException("thrown by the task");
        }
    }

    /// <summary>Leaves a Unix socket in its tree, which the snapshot cannot read (open until <see cref="CloseAll"/>: .NET removes it on close).</summary>
    public static class LeavesSocket
    {
        private static readonly System.Collections.Concurrent.ConcurrentBag<Socket> Open = [];

        public static void CloseAll()
        {
            while (Open.TryTake(out Socket? socket))
            {
                socket.Dispose();
            }
        }

        public sealed class Copy : Microsoft.Build.Tasks.Copy
        {
            public override bool Execute()
            {
                bool succeeded = base.Execute();
                var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                Open.Add(socket);
                socket.Bind(new UnixDomainSocketEndPoint(Path.Combine(Environment.CurrentDirectory, "socket")));
                return succeeded;
            }
        }
    }
}
