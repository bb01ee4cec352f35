using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

public sealed class BuildLogReaderTests
{
    [Fact]
    public void Summary_lines_of_every_project_and_stage_are_summed_with_their_reasons()
    {
        string[] log =
        [
            "  LibB -> /r/src/LibB/bin/Debug/net10.0/LibB.dll",
            "  CloneCopy: 2 files cloned (16.5 KB not written) [LibB]",
            "  CloneCopy: 0 files cloned (0 B not written), 12 copied (different volumes: 3, the filesystem cannot clone: 9), 4 up to date [App]",
            "  CloneCopy (Publish): 1 file cloned (1.0 MB not written; 1 in place of links), 1 copied (the filesystem cannot clone: 1), 2 linked, 1 failed [App]",
            "  CloneCopy: cloned \"/r/x.dll\" (4608 bytes not written).",
        ];

        var summary = BuildLogReader.ReadSummary(log);

        Assert.Equal(3, summary.Projects);
        Assert.Equal(3, summary.Cloned);
        Assert.Equal(13, summary.Copied);
        Assert.Equal(4, summary.UpToDate);
        Assert.Equal(1, summary.Failed);
        Assert.Equal(10, summary.CopiedBecause["the filesystem cannot clone"]);
        Assert.Equal(3, summary.CopiedBecause["different volumes"]);
    }

    /// <summary>A repository that sets CloneCopyAtomicReplace: its lines end with the switch, and are counted as the others.</summary>
    [Fact]
    public void Summary_lines_saying_atomic_replace_is_on_are_summed_as_the_others()
    {
        string[] log =
        [
            "  CloneCopy: 2 files cloned (16.5 KB not written), atomic replace on [LibB]",
            "  CloneCopy: 0 files cloned (0 B not written), 12 copied (the filesystem cannot clone: 12), 4 up to date, atomic replace on [App]",
            "  CloneCopy (Publish): 1 file cloned (1.0 MB not written), 1 failed, atomic replace on [App]",
            "  CloneCopy: 3 files cloned (1.0 KB not written) [Lib]",
        ];

        var summary = BuildLogReader.ReadSummary(log);

        Assert.Equal(4, summary.Projects);
        Assert.Equal(6, summary.Cloned);
        Assert.Equal(12, summary.Copied);
        Assert.Equal(4, summary.UpToDate);
        Assert.Equal(1, summary.Failed);
        Assert.Equal(12, summary.CopiedBecause["the filesystem cannot clone"]);
    }

    [Fact]
    public void The_Copy_task_total_comes_from_the_task_performance_summary_only()
    {
        string[] log =
        [
            "Target Performance Summary:",
            "       12 ms  Copy                                       1 calls",
            "",
            "Task Performance Summary:",
            "        3 ms  MakeDir                                    4 calls",
            "      187 ms  Copy                                      18 calls",
            "      900 ms  Csc                                        3 calls",
        ];

        Assert.Equal(187, BuildLogReader.ReadCopyTaskMilliseconds(log));
        Assert.Null(BuildLogReader.ReadCopyTaskMilliseconds(["Build succeeded."]));
    }

    [Fact]
    public void Projects_saying_a_line_are_named_once_each()
    {
        string[] log = ["  clonecopy-compare: CloneCopy injected [App]", "  clonecopy-compare: CloneCopy injected [App]", "  clonecopy-compare: CloneCopy injected [Lib]"];

        Assert.Equal(["App", "Lib"], BuildLogReader.ProjectsSaying(log, SdkInjection.InjectedLine));
        Assert.Empty(BuildLogReader.ProjectsSaying(log, SdkInjection.OwnLine));
    }

    [Fact]
    public void Error_lines_are_picked_out_for_the_message()
    {
        string[] log = ["  Lib -> x", "/r/Lib/Class1.cs(1,5): error CS1002: ; expected [/r/Lib/Lib.csproj]", "Build FAILED."];

        Assert.Equal(["/r/Lib/Class1.cs(1,5): error CS1002: ; expected [/r/Lib/Lib.csproj]"], BuildLogReader.Errors(log));
    }
}
