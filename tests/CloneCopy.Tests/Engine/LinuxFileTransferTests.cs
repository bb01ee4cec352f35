using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Linux;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Engine;

[Collection(FilesystemCollection.Name)]
public sealed class LinuxFileTransferTests
{
    private readonly LoopFilesystems _filesystems;

    public LinuxFileTransferTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs, 64 * 1024)]
    [InlineData(FilesystemKind.Xfs, 1024 * 1024)]
    [InlineData(FilesystemKind.Xfs, 16 * 1024 * 1024)]
    [InlineData(FilesystemKind.Btrfs, 64 * 1024)]
    [InlineData(FilesystemKind.Btrfs, 16 * 1024 * 1024)]
    public void Clones_on_reflink_filesystems_and_the_destination_shares_the_source_extents(FilesystemKind kind, int length)
    {
        string directory = _filesystems.NewDirectory(kind);
        string source = TestFiles.Write(Path.Combine(directory, "source.bin"), length, seed: length);
        LinuxTestFiles.Sync(source);
        string destination = Path.Combine(directory, "out", "destination.bin");
        Directory.CreateDirectory(Path.GetDirectoryName(destination)!);

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(length, result.Bytes);
        Assert.True(ExtentMap.SharesAllExtents(source, destination, out string extents), extents);
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
    }

    [FilesystemFact]
    public void Filefrag_agrees_that_a_clone_is_shared()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        string source = TestFiles.Write(Path.Combine(directory, "source.bin"), 256 * 1024);
        string destination = Path.Combine(directory, "destination.bin");

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(256 * 1024, result.Bytes);
        var sourceExtents = FilefragExtents(source);
        var destinationExtents = FilefragExtents(destination);
        string both = $"source: {string.Join("; ", sourceExtents)}{Environment.NewLine}destination: {string.Join("; ", destinationExtents)}";
        Assert.NotEmpty(destinationExtents);
        Assert.Equal(256 * 1024 / 4096, destinationExtents.Sum(e => e.Blocks)); // the whole file, in XFS's 4 KiB blocks
        Assert.All(destinationExtents, e => Assert.True(e.Flags.Split(',').Contains("shared"), both));
        Assert.Equal(sourceExtents.Select(e => (e.Logical, e.Physical, e.Blocks)), destinationExtents.Select(e => (e.Logical, e.Physical, e.Blocks)));
    }

    /// <summary>The extents "filefrag -v" lists: "   0:        0..      63:         24..        87:     64:             last,shared,eof".</summary>
    private static List<(long Logical, long Physical, long Blocks, string Flags)> FilefragExtents(string path) =>
        ProcessRunner.RunChecked("filefrag", $"-v \"{path}\"").Split('\n')
            .Select(line => Regex.Match(line, @"^\s*\d+:\s*(\d+)\.\.\s*\d+:\s*(\d+)\.\.\s*\d+:\s*(\d+):\s*(?:\d+:)?\s*(\S*)\s*$"))
            .Where(m => m.Success)
            .Select(m => (long.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), long.Parse(m.Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture), long.Parse(m.Groups[3].Value, System.Globalization.CultureInfo.InvariantCulture), m.Groups[4].Value))
            .ToList();

    [FilesystemTheory]
    [InlineData(1)]
    [InlineData(1024 * 1024)]
    public void Falls_back_on_ext4_with_identical_content_and_metadata(int length)
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4);
        string source = TestFiles.Write(Path.Combine(directory, "source.bin"), length, mode: (UnixFileMode)0b111_101_000);
        string destination = Path.Combine(directory, "destination.bin");

        TransferResult result = NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.NotEqual(TransferMethod.Cloned, result.Method);
        Assert.Equal(NotClonedReason.FilesystemCannotClone, result.Reason);
        Assert.True(ExtentMap.SharesNothing(destination));
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
    }

    [FilesystemFact]
    public void Falls_back_across_two_mounts_and_caches_the_verdict_for_the_pair_of_volumes()
    {
        string from = _filesystems.NewDirectory(FilesystemKind.Xfs);
        string to = _filesystems.NewDirectory(FilesystemKind.SecondXfs);
        var cache = new CloneCapabilityCache<VolumePair>();
        var transfer = new LinuxFileTransfer(cache);

        for (int i = 0; i < 3; i++)
        {
            string source = TestFiles.Write(Path.Combine(from, $"s{i}.bin"), 100_000, seed: i);
            string destination = Path.Combine(to, $"d{i}.bin");
            TransferResult result = transfer.Transfer(source, destination, CancellationToken.None);
            Assert.Equal(NotClonedReason.DifferentVolumes, result.Reason);
            Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
        }

        // One probe learnt that the volumes differ; the next two transfers did not ask again.
        Assert.Equal(1, cache.Attempts);

        // Within each volume cloning still works: the negative verdict is per pair of volumes.
        string local = Path.Combine(to, "local.bin");
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(Path.Combine(to, "d0.bin"), local, CancellationToken.None).Method);
    }

    [FilesystemFact]
    public void An_empty_source_is_copied_without_a_clone_attempt()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        string source = TestFiles.Write(Path.Combine(directory, "empty"), 0);
        var cache = new CloneCapabilityCache<VolumePair>();

        TransferResult result = new LinuxFileTransfer(cache).Transfer(source, Path.Combine(directory, "copy"), CancellationToken.None);

        Assert.Equal(NotClonedReason.EmptyFile, result.Reason);
        Assert.Equal(0, cache.Attempts);
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(Path.Combine(directory, "copy")));
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Ext4)]
    public void A_proc_file_whose_size_says_0_is_read_to_its_end(FilesystemKind kind)
    {
        string directory = _filesystems.NewDirectory(kind);
        string destination = Path.Combine(directory, "ostype");

        TransferResult result = NewTransfer().Transfer(SpecialSources.ProcFile, destination, CancellationToken.None);

        Assert.Equal(File.ReadAllBytes(SpecialSources.ProcFile), File.ReadAllBytes(destination));
        Assert.NotEmpty(File.ReadAllBytes(destination));
        Assert.Equal(NotClonedReason.SizeNotKnownInAdvance, result.Reason);
        Assert.Equal(new FileInfo(destination).Length, result.Bytes);
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Ext4)]
    public void A_named_pipe_is_read_until_its_writer_closes(FilesystemKind kind)
    {
        string directory = _filesystems.NewDirectory(kind);
        string pipe = Path.Combine(directory, "pipe");
        SpecialSources.MakePipe(pipe);
        string destination = Path.Combine(directory, "copy");

        using (SpecialSources.Feed(pipe))
        {
            NewTransfer().Transfer(pipe, destination, CancellationToken.None);
        }

        Assert.Equal(SpecialSources.PipeContent, File.ReadAllBytes(destination));
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Ext4)]
    public void Leaves_the_same_mode_and_nanosecond_timestamp_as_File_Copy(FilesystemKind kind)
    {
        string directory = _filesystems.NewDirectory(kind);
        string source = TestFiles.Write(Path.Combine(directory, "tool.sh"), 5000, mode: (UnixFileMode)0b111_101_101);
        LinuxTestFiles.SetNanosecondTimestamp(source, "2019-07-08 09:10:11.123456789");

        File.Copy(source, Path.Combine(directory, "by-file-copy"));
        NewTransfer().Transfer(source, Path.Combine(directory, "by-clonecopy"), CancellationToken.None);

        FileMetadata expected = FileMetadata.Read(Path.Combine(directory, "by-file-copy"));
        Assert.Equal(expected, FileMetadata.Read(Path.Combine(directory, "by-clonecopy")));
        Assert.Contains("11.123456789", expected.LastWriteTime);
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Ext4)]
    public void Replaces_a_longer_existing_destination_completely(FilesystemKind kind)
    {
        string directory = _filesystems.NewDirectory(kind);
        string source = TestFiles.Write(Path.Combine(directory, "short"), 10_000, seed: 1);
        string destination = TestFiles.Write(Path.Combine(directory, "long"), 300_000, seed: 2);

        NewTransfer().Transfer(source, destination, CancellationToken.None);

        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
    }

    [FilesystemFact]
    public void A_missing_source_throws_FileNotFoundException_and_creates_nothing()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        string destination = Path.Combine(directory, "never");

        Assert.Throws<FileNotFoundException>(() => NewTransfer().Transfer(Path.Combine(directory, "missing"), destination, CancellationToken.None));
        Assert.False(File.Exists(destination));
    }

    private static LinuxFileTransfer NewTransfer() => new(new CloneCapabilityCache<VolumePair>());
}
