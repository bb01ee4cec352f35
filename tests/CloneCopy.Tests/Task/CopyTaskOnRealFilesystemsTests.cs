using System;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>The whole task on real filesystems: clones where possible, identical copies elsewhere, nothing when up to date.</summary>
[Collection(FilesystemCollection.Name)]
public sealed class CopyTaskOnRealFilesystemsTests
{
    private static readonly int[] MixedSizes = [0, 1, 700, 4096, 65_536, 300_000, 2 * 1024 * 1024];
    private readonly LoopFilesystems _filesystems;

    public CopyTaskOnRealFilesystemsTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Btrfs)]
    public void Every_non_empty_file_is_cloned_and_shares_its_source_extents(FilesystemKind kind)
    {
        string directory = _filesystems.NewDirectory(kind);
        string[] sources = WriteSources(Path.Combine(directory, "src"), count: 28, minimumSize: kind == FilesystemKind.Btrfs ? 65_536 : 0);
        string output = Path.Combine(directory, "bin");

        var (task, succeeded, engine) = TaskRunner.CopyToFolder(sources, output);

        Assert.True(succeeded, engine.Describe());
        Assert.True(task.WroteAtLeastOneFile);
        Assert.Equal(sources.Length, task.CopiedFiles!.Length);
        int nonEmpty = 0;
        foreach (string source in sources)
        {
            string destination = Path.Combine(output, Path.GetFileName(source));
            Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
            if (new FileInfo(source).Length > 0)
            {
                nonEmpty++;
                Assert.True(ExtentMap.SharesAllExtents(source, destination, out string extents), $"{destination}: {extents}");
            }
        }

        long clonedBytes = sources.Sum(s => new FileInfo(s).Length);
        string summary = TaskRunner.Summary(engine);
        Assert.StartsWith($"CloneCopy: {nonEmpty} files cloned ({SizeText.Format(clonedBytes)} not written)", summary);
    }

    [FilesystemFact]
    public void A_second_run_with_SkipUnchangedFiles_writes_nothing()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        string[] sources = WriteSources(Path.Combine(directory, "src"), count: 14, minimumSize: 0);
        string output = Path.Combine(directory, "bin");
        Assert.True(TaskRunner.CopyToFolder(sources, output, skipUnchanged: true).Succeeded);
        var before = Directory.GetFiles(output).ToDictionary(f => f, f => (Inode: Inode(f), Changed: File.GetLastWriteTimeUtc(f)));

        var (task, succeeded, engine) = TaskRunner.CopyToFolder(sources, output, skipUnchanged: true);

        Assert.True(succeeded);
        Assert.False(task.WroteAtLeastOneFile);
        Assert.Equal(sources.Length, task.CopiedFiles!.Length);
        Assert.Equal(sources.Length, engine.Messages.Count(m => m.Message!.StartsWith("Did not copy from file", StringComparison.Ordinal)));
        Assert.DoesNotContain(engine.Messages, m => m.Message!.StartsWith("Copying file", StringComparison.Ordinal));
        foreach (var (file, state) in before)
        {
            Assert.Equal(state, (Inode(file), File.GetLastWriteTimeUtc(file)));
        }
    }

    [FilesystemFact]
    public void On_ext4_files_are_copied_identically_and_the_summary_says_why()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4);
        string[] sources = WriteSources(Path.Combine(directory, "src"), count: 7, minimumSize: 1);
        string output = Path.Combine(directory, "bin");

        var (_, succeeded, engine) = TaskRunner.CopyToFolder(sources, output);

        Assert.True(succeeded, engine.Describe());
        foreach (string source in sources)
        {
            string destination = Path.Combine(output, Path.GetFileName(source));
            Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
            Assert.True(ExtentMap.SharesNothing(destination));
        }

        Assert.Equal("CloneCopy: 0 files cloned (0 B not written), 7 copied (the filesystem cannot clone: 7)", TaskRunner.Summary(engine));
    }

    [FilesystemFact]
    public void Across_two_mounts_files_are_copied_and_the_summary_says_different_volumes()
    {
        string[] sources = WriteSources(_filesystems.NewDirectory(FilesystemKind.Xfs), count: 7, minimumSize: 1);
        string output = Path.Combine(_filesystems.NewDirectory(FilesystemKind.SecondXfs), "bin");

        var (_, succeeded, engine) = TaskRunner.CopyToFolder(sources, output);

        Assert.True(succeeded, engine.Describe());
        foreach (string source in sources)
        {
            Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(Path.Combine(output, Path.GetFileName(source))));
        }

        Assert.Equal("CloneCopy: 0 files cloned (0 B not written), 7 copied (different volumes: 7)", TaskRunner.Summary(engine));
    }

    private static string[] WriteSources(string directory, int count, int minimumSize) =>
        Enumerable.Range(0, count)
            .Select(i => TestFiles.Write(Path.Combine(directory, $"file{i}.dll"), Math.Max(minimumSize, MixedSizes[i % MixedSizes.Length]), seed: i))
            .ToArray();

    private static ulong Inode(string path)
    {
        CloneCopy.Platform.Linux.LibC.Statx(CloneCopy.Platform.Linux.LibC.AT_FDCWD, path, 0, CloneCopy.Platform.Linux.LibC.STATX_BASIC_STATS, out var stat);
        return stat.Inode;
    }
}
