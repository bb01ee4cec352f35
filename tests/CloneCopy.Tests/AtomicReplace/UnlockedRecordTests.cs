using System;
using System.IO;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>
/// Where the record's lock is silently not taken (NFS without a lock manager, some FUSE and network homes: .NET ignores
/// flock's failures other than EWOULDBLOCK), another process can take a running process's record as a dead one's. The
/// writer finds that when it makes its record, deletes it and keeps none: its temporary file is then judged by its
/// process id alone, and kept while it runs. The writer here is a process whose locks are all absent (.NET's switched
/// off) without CloneCopy being told (<see cref="AtomicReplaceHooks.LockSwitchUnseen"/>), stopped after writing its
/// replacement, alive; the cleaners are this process's, whose locks work.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class UnlockedRecordTests
{
    private readonly LoopFilesystems _filesystems;

    public UnlockedRecordTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemFact]
    public void A_running_process_whose_record_is_not_locked_keeps_no_record_and_its_temporary_file_stays()
    {
        string records = ReplacementJournal.Folder ?? throw new InvalidOperationException("this user has no folder for records");
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "unlocked-record");
        string source = TestFiles.Write(Path.Combine(directory, "new.bin"), 1 << 20, seed: 1);
        string output = Directory.CreateDirectory(Path.Combine(directory, "out")).FullName;
        string destination = Path.Combine(output, "app.dll");
        File.Copy(TestFiles.Write(Path.Combine(directory, "old.bin"), 300_000, seed: 2), destination);
        string other = Path.Combine(output, "other.dll");
        File.Copy(source, other);

        using var writer = RaceProcesses.Start(true, "--replace-loop", "clonecopy", "on", source, destination, "1", "stop-at-written", "lock-switch-unseen");
        try
        {
            string? line = writer.StandardOutput.ReadLine();
            Assert.True(line is not null && line.StartsWith("written ", StringComparison.Ordinal), $"the writer said '{line}'");
            string replacement = Assert.Single(RaceProcesses.Leftovers(output));

            // Every cleaner of a later build: its first Copy's look at the records, a replacement into the same folder, the clean step.
            var look = new CloneCopy.Copy { BuildEngine = new ProjectBuildEngine(), SourceFiles = [new TaskItem(source)], DestinationFolder = new TaskItem(Directory.CreateDirectory(Path.Combine(directory, "elsewhere")).FullName), SkipUnchangedFiles = true };
            Assert.True(look.Execute());
            File.SetLastWriteTimeUtc(source, DateTime.UtcNow);
            var replacing = new CloneCopy.Copy { BuildEngine = new ProjectBuildEngine(), SourceFiles = [new TaskItem(source)], DestinationFiles = [new TaskItem(other)], AtomicReplaceSetting = true };
            Assert.True(replacing.Execute());
            Assert.True(new CloneCopyClean { BuildEngine = new ProjectBuildEngine(), Folders = [directory] }.Execute());
            Assert.True(File.Exists(replacement), "the running writer's temporary file was removed on its unlocked record's say-so");
            string[] kept = Directory.Exists(records) ? Directory.GetFiles(records, $"{writer.Id}-*{ReplacementJournal.Suffix}") : [];
            Assert.True(kept.Length == 0, $"the writer kept a record its lock does not hold: {string.Join(", ", kept)}");
        }
        finally
        {
            writer.Kill();
            writer.WaitForExit();
        }

        // Gone: its process id says so, and the clean step removes its file.
        Assert.True(new CloneCopyClean { BuildEngine = new ProjectBuildEngine(), Folders = [directory] }.Execute());
        Assert.Empty(RaceProcesses.Leftovers(output));
    }
}
