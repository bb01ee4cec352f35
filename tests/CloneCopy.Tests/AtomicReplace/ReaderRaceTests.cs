using System;
using System.IO;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>
/// One process rewrites a destination over and over through a Copy task while another opens and reads it as fast as
/// it can. MSBuild's Copy (and CloneCopy without CloneCopyAtomicReplace) delete the destination and then write it:
/// the reader meets it missing or short. With the switch the reader meets the old file or the new one, whole, always.
/// The writer goes on until the reader has read <see cref="ReadsDuringRewriting"/> times while it rewrites
/// (<see cref="ReaderRaceDriver"/>), so a loaded machine makes the race longer, never thinner.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class ReaderRaceTests
{
    /// <summary>Enough rounds for a few seconds of rewriting: clones (XFS) take far less time than copies (ext4).</summary>
    private static int RoundsOn(FilesystemKind kind) => kind == FilesystemKind.Xfs ? 2000 : 150;
    private const int Length = 8 << 20;

    /// <summary>Reads begun while the writer rewrites: without the switch a few hundred meet it missing or short many times over.</summary>
    private const int ReadsDuringRewriting = 200;

    private readonly LoopFilesystems _filesystems;
    private readonly ITestOutputHelper _output;

    public ReaderRaceTests(LoopFilesystems filesystems, ITestOutputHelper output)
    {
        _filesystems = filesystems;
        _output = output;
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4, "msbuild", "off")]
    [InlineData(FilesystemKind.Ext4, "clonecopy", "off")]
    [InlineData(FilesystemKind.Xfs, "clonecopy", "off")]
    public void Without_the_switch_a_reader_meets_the_destination_missing_or_short(FilesystemKind kind, string task, string atomic)
    {
        (long during, long missing, long shortReads) = Race(kind, task, atomic);
        Assert.True(missing + shortReads > 0, $"{task} with the switch {atomic}: {during} reads during the rewriting met no missing or short file");
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4)]
    [InlineData(FilesystemKind.Xfs)]
    public void With_the_switch_a_reader_never_meets_the_destination_missing_or_short(FilesystemKind kind)
    {
        (long during, long missing, long shortReads) = Race(kind, "clonecopy", "on");
        Assert.True(during >= ReadsDuringRewriting, $"the reader read only {during} times while the writer rewrote (it gave up)");
        Assert.Equal((0L, 0L), (missing, shortReads));
    }

    /// <summary>The reads begun during the rewriting, and how many of all reads met the destination missing or short.</summary>
    private (long During, long Missing, long Short) Race(FilesystemKind kind, string task, string atomic)
    {
        string directory = _filesystems.NewDirectory(kind, "race");
        string source = TestFiles.Write(Path.Combine(directory, "source.bin"), Length, seed: 3);
        string output = Path.Combine(directory, "out");
        Directory.CreateDirectory(output);
        string destination = Path.Combine(output, "shared.bin");
        File.Copy(source, destination);
        string started = Path.Combine(directory, "started"), enough = Path.Combine(directory, "enough"), stop = Path.Combine(directory, "stop");
        var invariant = System.Globalization.CultureInfo.InvariantCulture;

        using var reader = RaceProcesses.Start(true, "--read-loop", destination, Length.ToString(invariant), started, enough, ReadsDuringRewriting.ToString(invariant), stop);
        Assert.Equal("ready", reader.StandardOutput.ReadLine());
        using var writer = RaceProcesses.Start(false, "--replace-until", task, atomic, source, destination, RoundsOn(kind).ToString(invariant), started, enough);
        string written;
        try
        {
            written = RaceProcesses.Finish(writer, 900);
        }
        finally
        {
            File.WriteAllText(stop, "");
        }

        string read = RaceProcesses.Finish(reader, 120);
        _output.WriteLine($"{kind} {task} switch {atomic}: {written.Trim()}; {read.Trim()}");
        Assert.Equal(0, RaceProcesses.Count(written, "failed"));
        Assert.Empty(RaceProcesses.Leftovers(output));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        return (RaceProcesses.Count(read, "during"), RaceProcesses.Count(read, "missing"), RaceProcesses.Count(read, "short"));
    }
}
