using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using CloneCopy.Tests.Windows;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>
/// MSBuild's Copy rules with CloneCopyAtomicReplace on, on real filesystems: the file a replace leaves is the file the
/// switch-off Copy leaves (content, mode, time), under a new inode; read-only destinations, links and
/// MSBUILDCOPYWITHOUTDELETE keep their meaning; nothing temporary is left, and what dead processes left is removed.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class AtomicReplaceRulesTests
{
    private readonly LoopFilesystems _filesystems;

    public AtomicReplaceRulesTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs, false)]
    [InlineData(FilesystemKind.Xfs, true)]
    [InlineData(FilesystemKind.Ext4, false)]
    [InlineData(FilesystemKind.Ext4, true)]
    public void A_replaced_destination_is_the_file_the_switch_off_Copy_makes_under_a_new_inode(FilesystemKind kind, bool readOnlySource)
    {
        string directory = _filesystems.NewDirectory(kind, "replace-same");
        string source = TestFiles.Write(Path.Combine(directory, "lib.dll"), 200_000, seed: 5, lastWrite: new DateTime(2024, 3, 1, 12, 0, 0, 123, DateTimeKind.Utc));
        File.SetUnixFileMode(source, readOnlySource ? UnixFileMode.UserRead | UnixFileMode.GroupRead : UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute | UnixFileMode.OtherRead);
        var results = new FileMetadata[2];
        for (int i = 0; i < 2; i++)
        {
            string output = Path.Combine(directory, i == 0 ? "off" : "on");
            Directory.CreateDirectory(output);
            string destination = TestFiles.Write(Path.Combine(output, "lib.dll"), 10, seed: 9);
            ulong before = Inode(destination);
            (bool ok, TestBuildEngine engine) = Copy(source, destination, atomic: i == 1);
            Assert.True(ok, engine.Describe());
            results[i] = FileMetadata.Read(destination);
            if (i == 1)
            {
                // A new file renamed over the old one (without the switch ext4 may give the new file the number it freed).
                Assert.NotEqual(before, Inode(destination));
            }

            Assert.Empty(RaceProcesses.Leftovers(output));
        }

        Assert.Equal(results[0], results[1]);
    }

    [FilesystemFact]
    public void A_hard_linked_destination_is_replaced_and_its_other_link_keeps_its_bytes()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "replace-linked");
        string source = TestFiles.Write(Path.Combine(directory, "new.dll"), 5000, seed: 1);
        string cache = TestFiles.Write(Path.Combine(directory, "cache.dll"), 4000, seed: 2);
        string destination = Path.Combine(directory, "bin.dll");
        FileSystemOps.HardLink(destination, cache);
        byte[] cacheBytes = File.ReadAllBytes(cache);

        Assert.True(Copy(source, destination, atomic: true).Succeeded);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        Assert.Equal(cacheBytes, File.ReadAllBytes(cache));
        Assert.Equal(1, FileSystemOps.LinkCount(cache));
    }

    [FilesystemTheory]
    [InlineData(null, "new bytes")]
    [InlineData("1", "new bytes")]
    public void MSBUILDCOPYWITHOUTDELETE_keeps_the_destination_in_place_as_without_the_switch(string? variable, string expectedDestination)
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "replace-hatch");
        string source = Path.Combine(directory, "new.dll");
        string cache = Path.Combine(directory, "cache.dll");
        string destination = Path.Combine(directory, "bin.dll");
        File.WriteAllText(source, "new bytes");
        File.WriteAllText(cache, "cache bytes");
        FileSystemOps.HardLink(destination, cache);
        ulong before = Inode(destination);

        Environment.SetEnvironmentVariable("MSBUILDCOPYWITHOUTDELETE", variable);
        try
        {
            Assert.True(Copy(source, destination, atomic: true).Succeeded);
        }
        finally
        {
            Environment.SetEnvironmentVariable("MSBUILDCOPYWITHOUTDELETE", null);
        }

        Assert.Equal(expectedDestination, File.ReadAllText(destination));
        Assert.Equal(variable == "1", Inode(destination) == before); // written through in place only when asked
        Assert.Equal(variable == "1" ? "new bytes" : "cache bytes", File.ReadAllText(cache));
    }

    [FilesystemTheory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_read_only_destination_is_replaced_only_with_OverwriteReadOnlyFiles(bool overwriteReadOnly)
    {
        // As root the write in place goes through (MSBuild's Copy writes it); as uid 65534 it fails with access denied in
        // both tasks (the atomic-replace differential lane). Either way: replaced by a rename only when asked.
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "replace-readonly");
        string source = TestFiles.Write(Path.Combine(directory, "new.dll"), 5000, seed: 1);
        string destination = TestFiles.Write(Path.Combine(directory, "bin.dll"), 4000, seed: 2);
        File.SetUnixFileMode(destination, UnixFileMode.UserRead);
        ulong before = Inode(destination);

        (bool ok, TestBuildEngine engine) = Copy(source, destination, atomic: true, overwriteReadOnly: overwriteReadOnly);
        Assert.True(ok, engine.Describe());
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
        Assert.Equal(!overwriteReadOnly, Inode(destination) == before);
        Assert.Equal(overwriteReadOnly, engine.Messages.Any(m => m.Importance == MessageImportance.Low && m.Message!.Contains("read-only", StringComparison.OrdinalIgnoreCase)));
        Assert.Empty(RaceProcesses.Leftovers(directory));
    }

    [FilesystemTheory]
    [InlineData(true, false)]
    [InlineData(false, true)]
    public void A_link_asked_for_replaces_the_destination_in_one_rename_and_a_link_to_the_same_file_leaves_nothing(bool hard, bool symbolic)
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "replace-link");
        string source = TestFiles.Write(Path.Combine(directory, "new.dll"), 5000, seed: 1);
        string destination = TestFiles.Write(Path.Combine(directory, "bin.dll"), 4000, seed: 2);
        for (int round = 0; round < 2; round++)
        {
            // The second round finds the destination already a link of the source: rename(2) between two links of one
            // file does nothing and succeeds, which would leave the temporary link.
            (bool ok, TestBuildEngine engine) = Copy(source, destination, atomic: true, hardLink: hard, symbolicLink: symbolic);
            Assert.True(ok, engine.Describe());
            Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(destination));
            Assert.Equal(symbolic, new FileInfo(destination).LinkTarget is not null);
            Assert.Equal(hard ? 2 : 1, FileSystemOps.LinkCount(source));
            Assert.Empty(RaceProcesses.Leftovers(directory));
        }
    }

    [FilesystemFact]
    public void Temporary_files_of_dead_processes_are_removed_and_those_of_live_ones_kept()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "replace-clean");
        string source = TestFiles.Write(Path.Combine(directory, "new.dll"), 5000, seed: 1);
        string output = Path.Combine(directory, "out");
        Directory.CreateDirectory(output);
        string destination = TestFiles.Write(Path.Combine(output, "bin.dll"), 4000, seed: 2);
        using var live = Process.Start("sleep", "60");
        using var dead = Process.Start("true");
        dead.WaitForExit();
        string ofDead = TestFiles.Write(Path.Combine(output, $".clonecopy-{dead.Id}-1f.tmp"), 100);
        string ofLive = TestFiles.Write(Path.Combine(output, $".clonecopy-{live.Id}-2f.tmp"), 100);
        string notOurs = TestFiles.Write(Path.Combine(output, ".clonecopy-notes.tmp"), 100);
        try
        {
            Assert.True(Copy(source, Path.Combine(output, "untouched.dll"), atomic: true).Succeeded); // a new file: no replace, no cleaning
            Assert.True(File.Exists(ofDead));
            Assert.True(Copy(source, destination, atomic: true).Succeeded);
            Assert.False(File.Exists(ofDead));
            Assert.True(File.Exists(ofLive));
            Assert.True(File.Exists(notOurs));
        }
        finally
        {
            live.Kill();
        }
    }

    /// <summary>
    /// A user's own file whose name only looks like a temporary one (.clonecopy-7-notes.tmp) is nobody's: neither a
    /// replacing Copy into its folder nor the clean step removes it, whether or not a process with that id runs. Only
    /// CloneCopy's own forms are: &lt;id&gt;-&lt;instance&gt;-&lt;number&gt;, and from before instances &lt;id&gt;-&lt;number&gt;,
    /// the number in lowercase hexadecimal.
    /// </summary>
    [FilesystemFact]
    public void A_user_s_file_named_like_a_temporary_file_is_never_removed()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4, "replace-not-ours");
        string source = TestFiles.Write(Path.Combine(directory, "new.dll"), 5000, seed: 1);
        string output = Directory.CreateDirectory(Path.Combine(directory, "out")).FullName;
        string destination = TestFiles.Write(Path.Combine(output, "bin.dll"), 4000, seed: 2);
        using var dead = Process.Start("true");
        dead.WaitForExit();
        string[] notOurs =
        [
            TestFiles.Write(Path.Combine(output, ".clonecopy-7-notes.tmp"), 100),
            TestFiles.Write(Path.Combine(output, $".clonecopy-{dead.Id}-notes.tmp"), 100),
            TestFiles.Write(Path.Combine(output, $".clonecopy-{dead.Id}-.tmp"), 100),
            TestFiles.Write(Path.Combine(output, $".clonecopy-{dead.Id}-0123abcd-notes.tmp"), 100),
        ];
        string ofDead = TestFiles.Write(Path.Combine(output, $".clonecopy-{dead.Id}-1f.tmp"), 100);

        Assert.True(Copy(source, destination, atomic: true).Succeeded);
        Assert.True(new CloneCopyClean { BuildEngine = new TestBuildEngine(), Folders = [directory] }.Execute());
        Assert.False(File.Exists(ofDead), "the dead process's own temporary file was not removed");
        string[] gone = notOurs.Where(path => !File.Exists(path)).Select(Path.GetFileName).ToArray()!;
        Assert.True(gone.Length == 0, $"removed: {string.Join(", ", gone)}");
    }

    private static (bool Succeeded, TestBuildEngine Engine) Copy(string source, string destination, bool atomic, bool overwriteReadOnly = false, bool hardLink = false, bool symbolicLink = false)
    {
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source)],
            DestinationFiles = [new TaskItem(destination)],
            OverwriteReadOnlyFiles = overwriteReadOnly,
            UseHardlinksIfPossible = hardLink,
            UseSymboliclinksIfPossible = symbolicLink,
            AtomicReplaceSetting = atomic,
        };
        return (task.Execute(), engine);
    }

    private static ulong Inode(string path) => RealFileIds.Read(path, followLinks: false)?.Inode ?? throw new InvalidOperationException(path);
}
