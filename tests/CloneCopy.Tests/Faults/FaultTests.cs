using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Faults;

/// <summary>
/// Things broken on purpose, on real filesystems: each test fails if the protection it names is removed.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class FaultTests
{
    private readonly LoopFilesystems _filesystems;

    public FaultTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemFact]
    public void A_full_filesystem_is_MSBuilds_error_the_source_survives_and_the_next_build_recopies()
    {
        string source = TestFiles.Write(Path.Combine(_filesystems.NewDirectory(FilesystemKind.Ext4), "big.bin"), 30 * 1024 * 1024);
        string sourceHash = FileMetadata.Read(source).ContentHash;
        string small = _filesystems.MountSmall(FilesystemKind.Ext4, "64M");
        string filler = TestFiles.Write(Path.Combine(small, "filler.bin"), 40 * 1024 * 1024, seed: 9);
        string destination = Path.Combine(small, "out", "big.bin");

        var (succeeded, engine) = Copy(source, destination, retries: 1);

        Assert.False(succeeded);
        Assert.Contains(engine.Errors, e => e.Code == "MSB3021" && e.Message!.Contains("No space left on device", StringComparison.Ordinal));
        Assert.Contains(engine.Errors, e => e.Code == "MSB3027");
        Assert.Equal(sourceHash, FileMetadata.Read(source).ContentHash);
        Assert.False(LooksUpToDate(source, destination), "a half-written destination looks up to date");
        Assert.False(File.Exists(destination), "the half-written destination was left behind");

        File.Delete(filler);
        var (again, againEngine) = Copy(source, destination, retries: 1, skipUnchanged: true);
        Assert.True(again, againEngine.Describe());
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
    }

    [FilesystemFact]
    public void An_immutable_destination_fails_with_the_same_codes_as_MSBuilds_Copy_and_keeps_its_bytes()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4);
        string source = TestFiles.Write(Path.Combine(directory, "a.dll"), 5000);
        string[] destinations = [Path.Combine(directory, "builtin.dll"), Path.Combine(directory, "clonecopy.dll")];
        foreach (string d in destinations)
        {
            File.WriteAllText(d, "locked");
            ProcessRunner.RunChecked("chattr", $"+i \"{d}\"");
        }

        try
        {
            var builtIn = Run(new Microsoft.Build.Tasks.Copy(), source, destinations[0], retries: 1);
            var cloneCopy = Run(new CloneCopy.Copy(), source, destinations[1], retries: 1);

            Assert.False(cloneCopy.Succeeded);
            Assert.Equal(builtIn.Succeeded, cloneCopy.Succeeded);
            Assert.Equal(Codes(builtIn.Engine), Codes(cloneCopy.Engine));
            Assert.Contains("MSB3021", Codes(cloneCopy.Engine));
            Assert.Equal("locked", File.ReadAllText(destinations[1]));
        }
        finally
        {
            foreach (string d in destinations)
            {
                ProcessRunner.Run("chattr", $"-i \"{d}\"");
            }
        }
    }

    [FilesystemFact]
    public void On_ext4_the_first_clone_attempt_teaches_the_cache_and_later_files_do_not_ask_again()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4);
        var cache = new CloneCapabilityCache<VolumePair>();
        var transfer = new CloneCopy.Platform.Linux.LinuxFileTransfer(cache);

        for (int i = 0; i < 5; i++)
        {
            string source = TestFiles.Write(Path.Combine(directory, $"s{i}"), 10_000, i);
            Assert.Equal(NotClonedReason.FilesystemCannotClone, transfer.Transfer(source, Path.Combine(directory, $"d{i}"), CancellationToken.None).Reason);
        }

        Assert.Equal(1, cache.Attempts);
    }

    [FilesystemFact]
    public void A_source_deleted_between_planning_and_copying_is_MSB3030_and_leaves_no_destination()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        string source = TestFiles.Write(Path.Combine(directory, "vanishing.dll"), 5000);
        string destination = Path.Combine(directory, "out", "vanishing.dll");
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source)],
            DestinationFiles = [new TaskItem(destination)],
            RetryDelayMilliseconds = 1,
            Transfer = new DeletingSourceFirst(PlatformFactory.Current.Transfer),
        };

        Assert.False(task.Execute());

        Assert.Equal("MSB3030", Assert.Single(engine.Errors).Code);
        Assert.False(File.Exists(destination));
    }

    [FilesystemTheory]
    [InlineData("symlinked directory")]
    [InlineData("bind mount")]
    [InlineData("symbolic link source")]
    public void A_copy_onto_itself_by_another_path_keeps_the_source(string how)
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        string real = Path.Combine(directory, "real");
        string source = TestFiles.Write(Path.Combine(real, "a.dll"), 70_000);
        FileMetadata before = FileMetadata.Read(source);
        string sourceSpec = source;
        string destination;
        string? bindMount = null;
        switch (how)
        {
            case "symlinked directory":
                Directory.CreateSymbolicLink(Path.Combine(directory, "alias"), real);
                destination = Path.Combine(directory, "alias", "a.dll");
                break;
            case "bind mount":
                bindMount = Path.Combine(directory, "bound");
                Directory.CreateDirectory(bindMount);
                ProcessRunner.RunChecked("mount", $"--bind \"{real}\" \"{bindMount}\"");
                destination = Path.Combine(bindMount, "a.dll");
                break;
            default:
                sourceSpec = Path.Combine(directory, "link-to-a.dll");
                File.CreateSymbolicLink(sourceSpec, source);
                destination = source;
                break;
        }

        try
        {
            var (succeeded, engine) = Copy(sourceSpec, destination, retries: 1);

            Assert.True(succeeded, engine.Describe());
            Assert.Equal(before, FileMetadata.Read(source));
        }
        finally
        {
            if (bindMount is not null)
            {
                ProcessRunner.Run("umount", $"\"{bindMount}\"");
            }
        }
    }

    [FilesystemFact]
    public void A_copy_onto_a_hard_link_of_the_source_keeps_both_files_whole()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Xfs);
        string source = TestFiles.Write(Path.Combine(directory, "a.dll"), 70_000);
        string destination = Path.Combine(directory, "b.dll");
        ProcessRunner.RunChecked("ln", $"\"{source}\" \"{destination}\"");
        FileMetadata before = FileMetadata.Read(source);

        var (succeeded, engine) = Copy(source, destination, retries: 1);

        Assert.True(succeeded, engine.Describe());
        Assert.Equal(before, FileMetadata.Read(source));
        Assert.Equal(before, FileMetadata.Read(destination));
    }

    [FilesystemFact]
    public void A_read_only_destination_hard_linked_into_a_package_cache_is_replaced_not_written_through()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4);
        string source = TestFiles.Write(Path.Combine(directory, "new.dll"), 9000, seed: 1);
        string cache = TestFiles.Write(Path.Combine(directory, "cache", "pkg.dll"), 7000, seed: 2);
        FileMetadata cacheBefore = FileMetadata.Read(cache);
        string destination = Path.Combine(directory, "bin", "pkg.dll");
        Directory.CreateDirectory(Path.GetDirectoryName(destination)!);
        ProcessRunner.RunChecked("ln", $"\"{cache}\" \"{destination}\"");
        File.SetAttributes(destination, FileAttributes.ReadOnly); // the cache file is read-only, and so its link

        var (succeeded, engine) = Copy(source, destination, retries: 0);

        Assert.True(succeeded, engine.Describe());
        Assert.Equal(FileMetadata.Read(source).ContentHash, FileMetadata.Read(destination).ContentHash);
        Assert.Equal(cacheBefore.ContentHash, FileMetadata.Read(cache).ContentHash);
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4)]
    [InlineData(FilesystemKind.Xfs)]
    public void Concurrent_Copy_tasks_writing_the_same_destinations_leave_every_file_complete(FilesystemKind kind)
    {
        string directory = _filesystems.NewDirectory(kind);
        string[] sources = Enumerable.Range(0, 40).Select(i => TestFiles.Write(Path.Combine(directory, "src", $"f{i}.dll"), 1000 + i * 25_000, i)).ToArray();
        string output = Path.Combine(directory, "shared-bin");

        for (int round = 0; round < 3; round++)
        {
            var results = new bool[4];
            var threads = Enumerable.Range(0, 4).Select(t => new Thread(() =>
            {
                var task = new CloneCopy.Copy
                {
                    BuildEngine = new TestBuildEngine(),
                    SourceFiles = sources.Select(s => (ITaskItem)new TaskItem(s)).ToArray(),
                    DestinationFolder = new TaskItem(output),
                    RetryDelayMilliseconds = 5,
                };
                results[t] = task.Execute();
            })).ToList();
            threads.ForEach(t => t.Start());
            threads.ForEach(t => t.Join());

            Assert.All(results, Assert.True);
            foreach (string source in sources)
            {
                Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(Path.Combine(output, Path.GetFileName(source))));
            }
        }
    }

    [FilesystemFact]
    public void Cancelling_in_the_middle_of_a_large_copy_leaves_nothing_that_looks_up_to_date()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4);
        string source = TestFiles.Write(Path.Combine(directory, "huge.bin"), 400 * 1024 * 1024);
        string sourceHash = FileMetadata.Read(source).ContentHash;
        string destination = Path.Combine(directory, "out", "huge.bin");
        var task = new CloneCopy.Copy
        {
            BuildEngine = new TestBuildEngine(),
            SourceFiles = [new TaskItem(source)],
            DestinationFiles = [new TaskItem(destination)],
            SkipUnchangedFiles = true,
        };

        bool? result = null;
        var worker = new Thread(() => result = task.Execute());
        worker.Start();
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (!(File.Exists(destination) && new FileInfo(destination).Length > 0) && worker.IsAlive && waited.ElapsedMilliseconds < 30_000)
        {
            Thread.Sleep(1);
        }

        Assert.True(worker.IsAlive, "the copy finished before it could be cancelled; the source must be larger");
        task.Cancel();
        worker.Join();

        Assert.False(result);
        Assert.False(LooksUpToDate(source, destination));
        Assert.False(File.Exists(destination), "the half-written destination was left behind");
        Assert.Equal(sourceHash, FileMetadata.Read(source).ContentHash);
        File.Delete(source);
    }

    private static bool LooksUpToDate(string source, string destination) =>
        File.Exists(destination)
        && new FileInfo(destination).Length == new FileInfo(source).Length
        && File.GetLastWriteTimeUtc(destination) == File.GetLastWriteTimeUtc(source);

    private static string Codes(TestBuildEngine engine) =>
        string.Join(",", engine.Errors.Select(e => e.Code).Concat(engine.Warnings.Select(w => w.Code)).Order());

    private static (bool Succeeded, TestBuildEngine Engine) Copy(string source, string destination, int retries, bool skipUnchanged = false) =>
        Run(new CloneCopy.Copy(), source, destination, retries, skipUnchanged);

    private static (bool Succeeded, TestBuildEngine Engine) Run(ITask task, string source, string destination, int retries, bool skipUnchanged = false)
    {
        var engine = new TestBuildEngine();
        task.BuildEngine = engine;
        var type = task.GetType();
        type.GetProperty("SourceFiles")!.SetValue(task, new ITaskItem[] { new TaskItem(source) });
        type.GetProperty("DestinationFiles")!.SetValue(task, new ITaskItem[] { new TaskItem(destination) });
        type.GetProperty("Retries")!.SetValue(task, retries);
        type.GetProperty("RetryDelayMilliseconds")!.SetValue(task, 5);
        type.GetProperty("SkipUnchangedFiles")!.SetValue(task, skipUnchanged);
        return (task.Execute(), engine);
    }

    /// <summary>Deletes the source just before the real transfer runs: the race between planning and copying.</summary>
    private sealed class DeletingSourceFirst : IFileTransfer
    {
        private readonly IFileTransfer _inner;

        public DeletingSourceFirst(IFileTransfer inner) => _inner = inner;

        public TransferResult Transfer(string sourcePath, string destinationPath, CancellationToken cancellationToken)
        {
            File.Delete(sourcePath);
            return _inner.Transfer(sourcePath, destinationPath, cancellationToken);
        }
    }
}
