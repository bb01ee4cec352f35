using System;
using System.IO;
using System.Threading;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>
/// A Copy with CloneCopyAtomicReplace killed at any point leaves the destination whole (old or new) and at most one
/// hidden temporary file, which the next Copy removes (its first look at the killed process's record, or its
/// replacement into that folder).
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class KilledReplaceTests
{
    private readonly LoopFilesystems _filesystems;
    private readonly ITestOutputHelper _output;

    public KilledReplaceTests(LoopFilesystems filesystems, ITestOutputHelper output)
    {
        _filesystems = filesystems;
        _output = output;
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4)]
    [InlineData(FilesystemKind.Xfs)]
    public void Killed_after_writing_the_replacement_leaves_the_old_destination_and_a_file_the_next_Copy_removes(FilesystemKind kind)
    {
        string directory = _filesystems.NewDirectory(kind, "killed-written");
        string source = TestFiles.Write(Path.Combine(directory, "new.bin"), 1 << 20, seed: 1);
        string old = TestFiles.Write(Path.Combine(directory, "old.bin"), 300_000, seed: 2);
        string output = Path.Combine(directory, "out");
        Directory.CreateDirectory(output);
        string destination = Path.Combine(output, "app.dll");
        File.Copy(old, destination);

        using var writer = RaceProcesses.Start(false, "--replace-loop", "clonecopy", "on", source, destination, "1", "stop-at-written");
        string? line = writer.StandardOutput.ReadLine();
        writer.Kill();
        writer.WaitForExit();
        Assert.NotNull(line);
        Assert.StartsWith("written ", line);
        string replacement = line!["written ".Length..];

        // Stopped between the write and the rename: the destination is the old file, the replacement is complete and hidden.
        Assert.Equal(output, Path.GetDirectoryName(replacement));
        Assert.StartsWith(".clonecopy-", Path.GetFileName(replacement));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(replacement));
        Assert.Equal(File.ReadAllBytes(old), File.ReadAllBytes(destination));

        CopyReplacing(source, destination);
        Assert.Empty(RaceProcesses.Leftovers(output));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
    }

    /// <summary>
    /// The process that loads CloneCopy lives across builds (the MSBuild Server, reused nodes): the look for killed
    /// replaces is taken by each build's first Copy, not once per process. Two builds in this one process (two engines,
    /// each with its own build-scoped objects, as MSBuild gives a reused node): a writer killed after the first build's
    /// look leaves its file, and the second build's first Copy, with the switch off and replacing nothing, removes it.
    /// </summary>
    [FilesystemFact]
    public void A_replace_killed_between_two_builds_of_one_node_is_removed_by_the_next_build_s_first_Copy_whatever_it_copies()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "killed-between-builds");
        string source = TestFiles.Write(Path.Combine(directory, "new.bin"), 1 << 20, seed: 1);
        string output = Directory.CreateDirectory(Path.Combine(directory, "out")).FullName;
        string destination = Path.Combine(output, "app.dll");
        File.Copy(TestFiles.Write(Path.Combine(directory, "old.bin"), 300_000, seed: 2), destination);
        string elsewhere = Directory.CreateDirectory(Path.Combine(directory, "elsewhere")).FullName;

        // The first build: its first Copy takes the look (nothing to remove yet).
        CopyUpToDate(new ProjectBuildEngine(), source, elsewhere);

        using var writer = RaceProcesses.Start(false, "--replace-loop", "clonecopy", "on", source, destination, "1", "stop-at-written");
        string? line = writer.StandardOutput.ReadLine();
        writer.Kill();
        writer.WaitForExit();
        Assert.StartsWith("written ", line);
        Assert.Single(RaceProcesses.Leftovers(output));

        // The next build on the same node: a Copy with the switch off, of a file that is up to date, into another folder.
        CopyUpToDate(new ProjectBuildEngine(), source, elsewhere);
        Assert.Empty(RaceProcesses.Leftovers(output));
    }

    /// <summary>
    /// A parallel build: another process's Copy is writing its replacement right now (here, stopped after writing it,
    /// alive). Neither the next build's look, nor a replacing Copy into that folder, nor the clean step removes its file;
    /// once that process is killed, the clean step does.
    /// </summary>
    [FilesystemFact]
    public void A_temporary_file_of_a_running_process_is_kept_by_every_cleaner_and_removed_once_the_process_is_gone()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "live-writer");
        string source = TestFiles.Write(Path.Combine(directory, "new.bin"), 1 << 20, seed: 1);
        string output = Directory.CreateDirectory(Path.Combine(directory, "out")).FullName;
        string destination = Path.Combine(output, "app.dll");
        File.Copy(TestFiles.Write(Path.Combine(directory, "old.bin"), 300_000, seed: 2), destination);
        string other = Path.Combine(output, "other.dll");
        File.Copy(source, other);

        using var writer = RaceProcesses.Start(false, "--replace-loop", "clonecopy", "on", source, destination, "1", "stop-at-written");
        try
        {
            Assert.StartsWith("written ", writer.StandardOutput.ReadLine());
            string replacement = Assert.Single(RaceProcesses.Leftovers(output));

            CopyUpToDate(new ProjectBuildEngine(), source, Directory.CreateDirectory(Path.Combine(directory, "elsewhere")).FullName); // a new build's look
            File.SetLastWriteTimeUtc(source, DateTime.UtcNow);
            var replacing = new CloneCopy.Copy { BuildEngine = new ProjectBuildEngine(), SourceFiles = [new TaskItem(source)], DestinationFiles = [new TaskItem(other)], AtomicReplaceSetting = true };
            Assert.True(replacing.Execute()); // a replacement into the same folder
            Assert.True(new CloneCopyClean { BuildEngine = new ProjectBuildEngine(), Folders = [directory] }.Execute());
            Assert.Equal([replacement], RaceProcesses.Leftovers(output));
        }
        finally
        {
            writer.Kill();
            writer.WaitForExit();
        }

        Assert.True(new CloneCopyClean { BuildEngine = new TestBuildEngine(), Folders = [directory] }.Execute());
        Assert.Empty(RaceProcesses.Leftovers(output));
    }

    private static void CopyUpToDate(ProjectBuildEngine build, string source, string folder)
    {
        var task = new CloneCopy.Copy { BuildEngine = build, SourceFiles = [new TaskItem(source)], DestinationFolder = new TaskItem(folder), SkipUnchangedFiles = true };
        Assert.True(task.Execute());
    }

    /// <summary>
    /// Kills at moments spread over 64 MiB copies into the temporary name, each one forced to land inside a replacement
    /// whatever the machine's speed: the test waits until a replacement is under way (its temporary file is there, or,
    /// were the destination deleted first, the destination is missing or short), stops the writer (SIGSTOP) a random
    /// few looks later, and kills it only if it stopped inside the replacement (else lets it go on to the next one).
    /// </summary>
    [FilesystemFact]
    public void Killed_at_random_moments_of_large_copies_leaves_a_whole_destination_and_nothing_after_the_next_Copy()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "killed-random");
        const int length = 64 << 20;
        const int rounds = 8;
        string source = TestFiles.Write(Path.Combine(directory, "new.bin"), length, seed: 1);
        string old = TestFiles.Write(Path.Combine(directory, "old.bin"), length, seed: 2);
        byte[] newBytes = File.ReadAllBytes(source), oldBytes = File.ReadAllBytes(old);
        var random = new Random(52); // the same spread of moments in every run
        for (int i = 0; i < rounds; i++)
        {
            string output = Path.Combine(directory, $"out{i}");
            Directory.CreateDirectory(output);
            string destination = Path.Combine(output, "big.bin");
            File.Copy(old, destination);
            using var writer = RaceProcesses.Start(false, "--replace-loop", "clonecopy", "on", source, destination, "1000");
            (string[] left, int looks) = StopInsideAReplacement(writer, output, destination, length, random.Next(0, 64));
            writer.Kill();
            writer.WaitForExit();

            // Stopped inside a replacement, then killed: the destination is one of the two files, whole; one temporary file.
            byte[] after = File.ReadAllBytes(destination);
            Assert.True(after.AsSpan().SequenceEqual(oldBytes) || after.AsSpan().SequenceEqual(newBytes), $"round {i}: the destination is neither file whole ({after.Length} bytes)");
            Assert.True(left.Length == 1 && RaceProcesses.Leftovers(output).Length == 1, $"round {i}: {string.Join(", ", RaceProcesses.Leftovers(output))}");
            _output.WriteLine($"round {i}: killed {looks} looks into a replacement: {Path.GetFileName(left[0])} left, {new FileInfo(left[0]).Length} bytes of {length}");

            CopyReplacing(source, destination);
            Assert.Empty(RaceProcesses.Leftovers(output));
            Assert.Equal(newBytes, File.ReadAllBytes(destination));
        }
    }

    /// <summary>
    /// Waits for <paramref name="writer"/> to be inside a replacement, lets it run <paramref name="moreLooks"/> looks
    /// further, and stops it there (SIGSTOP): returns the temporary files seen while it was stopped (and, for a writer
    /// that deletes the destination first, none, the destination being broken). A writer stopped between two
    /// replacements is let go (SIGCONT) and caught in the next. Fails when the writer ends first.
    /// </summary>
    private static (string[] Left, int Looks) StopInsideAReplacement(System.Diagnostics.Process writer, string output, string destination, long length, int moreLooks)
    {
        int looks = 0;
        while (true)
        {
            if (writer.HasExited)
            {
                Assert.Fail($"the writer ended without being caught inside a replacement: {writer.StandardOutput.ReadToEnd()}{writer.StandardError.ReadToEnd()}");
            }

            if (!InsideAReplacement(output, destination, length) || looks++ < moreLooks)
            {
                Thread.Yield();
                continue;
            }

            Assert.Equal(0, Signals.Send(writer.Id, Signals.Stop));
            Signals.WaitUntilStopped(writer.Id); // a rename under way when the signal came is finished by now
            string[] left = RaceProcesses.Leftovers(output);
            if (left.Length > 0 || InsideAReplacement(output, destination, length))
            {
                return (left, looks);
            }

            Assert.Equal(0, Signals.Send(writer.Id, Signals.Continue));
        }
    }

    /// <summary>A temporary file is there, or the destination is not whole (missing or short: deleted first, then written).</summary>
    private static bool InsideAReplacement(string output, string destination, long length)
    {
        var file = new FileInfo(destination);
        return RaceProcesses.Leftovers(output).Length > 0 || !file.Exists || file.Length != length;
    }

    private static void CopyReplacing(string source, string destination)
    {
        var task = new CloneCopy.Copy { BuildEngine = new TestBuildEngine(), SourceFiles = [new TaskItem(source)], DestinationFiles = [new TaskItem(destination)], AtomicReplaceSetting = true };
        Assert.True(task.Execute());
    }
}
