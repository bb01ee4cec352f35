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
/// hidden temporary file, which the next replacing Copy into that folder removes.
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

    [FilesystemFact]
    public void Killed_at_random_moments_of_large_copies_leaves_a_whole_destination_and_nothing_after_the_next_Copy()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "killed-random");
        const int length = 64 << 20;
        string first = TestFiles.Write(Path.Combine(directory, "a.bin"), length, seed: 1);
        byte[] firstBytes = File.ReadAllBytes(first);
        int[] delays = [150, 250, 300, 400, 450, 550, 600, 700, 800, 1100];
        int sawReplacement = 0;
        for (int i = 0; i < delays.Length; i++)
        {
            string output = Path.Combine(directory, $"out{i}");
            Directory.CreateDirectory(output);
            string destination = Path.Combine(output, "big.bin");
            File.Copy(first, destination);
            using var writer = RaceProcesses.Start(false, "--replace-loop", "clonecopy", "on", first, destination, "1000");
            Thread.Sleep(delays[i]);
            writer.Kill();
            writer.WaitForExit();

            string[] left = RaceProcesses.Leftovers(output);
            Assert.True(left.Length <= 1, string.Join(", ", left));
            sawReplacement += left.Length;
            Assert.Equal(firstBytes, File.ReadAllBytes(destination));
            _output.WriteLine($"killed after {delays[i]} ms: {left.Length} temporary file(s) left");

            CopyReplacing(first, destination);
            Assert.Empty(RaceProcesses.Leftovers(output));
            Assert.Equal(firstBytes, File.ReadAllBytes(destination));
        }

        // A kill meets the 64 MiB copy into the temporary name most of the time: the cleaning was exercised.
        Assert.True(sawReplacement > 0, "no kill met a replacement being written");
    }

    private static void CopyReplacing(string source, string destination)
    {
        var task = new CloneCopy.Copy { BuildEngine = new TestBuildEngine(), SourceFiles = [new TaskItem(source)], DestinationFiles = [new TaskItem(destination)], AtomicReplaceSetting = true };
        Assert.True(task.Execute());
    }
}
