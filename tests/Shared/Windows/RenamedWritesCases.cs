using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// CloneCopyAtomicReplace writes a replaced destination under a temporary name beside it and renames it over the
/// destination (<see cref="WindowsPlatform.ReplaceWith"/>). What the Windows cloner remembers by name follows the rename:
/// the copy made at the link limit stays the seed of later clones of its source, and a clone of this process stays
/// known as one (not a fresh source) when it is the next copy's source.
/// </summary>
public abstract class RenamedWritesCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-renamed").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new() { OsBuild = 20348 };
    private readonly WindowsPlatform _platform;
    private readonly ClonerTransfer _transfer;

    protected RenamedWritesCases()
    {
        _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{99999999-0000-0000-0000-000000000099}\");
        _platform = new WindowsPlatform(_kernel, new EngineDiagnostics());
        _transfer = (ClonerTransfer)_platform.Transfer;
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_copy_made_at_the_link_limit_under_a_temporary_name_is_the_seed_under_its_final_name()
    {
        // Two references per block here: the source and one clone of it. The next clone of the source meets the limit, is
        // copied under the temporary name, and the copy renamed over the destination; the clone after that must read the
        // copy (fresh blocks), where it now is. Before, the seed was looked for under the temporary name: not found,
        // forgotten, and every later clone of the source at the limit was a full copy.
        _kernel.ReferenceLimit = 2;
        string source = Old(TestFiles.Write(Named("pkg", "p.dll"), 70_000, seed: 1));
        Assert.Equal(TransferMethod.Cloned, Transfer(source, Named("bin0", "p.dll")).Method);
        string replacement = Named("bin1", ".clonecopy-1-1.tmp");
        string destination = TestFiles.Write(Named("bin1", "p.dll"), 100, seed: 2); // the file an earlier build left

        Assert.Equal(NotClonedReason.LinkLimit, Transfer(source, replacement).Reason);
        _platform.ReplaceWith(replacement, destination);
        _kernel.Calls.Clear();
        TransferResult next = Transfer(source, Named("bin2", "p.dll"));

        Assert.Equal((TransferMethod.Cloned, NotClonedReason.None), (next.Method, next.Reason));
        Assert.Contains($"CreateFile {destination} OpenExisting", _kernel.Calls); // the seed, opened where it is now
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin2", "p.dll")));
        Assert.Equal(2, _kernel.ReferencesOf(destination));
        Assert.Equal(0, _kernel.OpenHandles);
    }

    [Fact]
    public void A_clone_renamed_over_its_destination_is_still_this_process_s_clone_when_it_is_the_next_copy_s_source()
    {
        string source = TestFiles.Write(Named("obj", "x.dll"), 70_000, seed: 3);
        string replacement = Named("bin1", ".clonecopy-1-2.tmp");
        string destination = TestFiles.Write(Named("bin1", "x.dll"), 100, seed: 4);
        Assert.Equal(TransferMethod.Cloned, Transfer(source, replacement).Method);
        Assert.Single(_kernel.CallsTo("CreateMutex")); // a fresh source: its clone made under its mutex, read back whole
        _kernel.Calls.Clear();

        _platform.ReplaceWith(replacement, destination);
        // The rename, and one call more: the renamed file's identity, through the handle that renamed it.
        Assert.Equal(["CreateFile", "RenameByHandle", "QueryAllInformation", "CloseHandle"], _kernel.Calls.Select(c => c.Split(' ')[0]));
        _kernel.Calls.Clear();
        TransferResult next = Transfer(destination, Named("bin2", "x.dll"));

        Assert.Equal(TransferMethod.Cloned, next.Method);
        Assert.Empty(_kernel.CallsTo("CreateMutex")); // its data is the shared clusters: not fresh, whatever its times
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin2", "x.dll")));
    }

    [Fact]
    public void A_clone_whose_final_name_another_node_takes_at_once_is_not_mistaken_for_the_other_node_s_file()
    {
        // A double write (two nodes copying one source to one destination): the other node's copy, written through the
        // cache (its data not on the volume yet) with the clone's last write time and length, takes the destination's
        // name between this process's rename and its look at the renamed file. Looked at by name, that copy passed for
        // this clone, whose data is on the volume: the next clone from it was made as from an old file, and read zeros
        // nobody saw. Looked at through the handle that renamed, the look sees this clone: the other node's file is
        // fresh by its times, cloned under its mutex and read back whole (CLC008 and a copy of the right bytes).
        _kernel.UnflushedSources = UnflushedSourceClones.ReadAsZeros;
        string source = TestFiles.Write(Named("obj", "d.dll"), 70_000, seed: 8);
        string replacement = Named("bin1", ".clonecopy-1-4.tmp");
        string destination = TestFiles.Write(Named("bin1", "d.dll"), 100, seed: 9);
        Assert.Equal(TransferMethod.Cloned, Transfer(source, replacement).Method);
        string theirs = Named("bin1", ".clonecopy-2-1.tmp");
        bool renamed = false, taken = false;
        _kernel.Fault = (call, _) =>
        {
            renamed |= call == "RenameByHandle";
            if (renamed && !taken && call != "RenameByHandle" && call != "CloseHandle")
            {
                taken = true; // the other node, now: its copy renamed over the destination (its own calls pass here too)
                File.Copy(source, theirs);
                File.SetLastWriteTimeUtc(theirs, File.GetLastWriteTimeUtc(source));
                _kernel.WrittenNotFlushed(theirs);
                WindowsReplace.Replace(_kernel, theirs, destination, _ => { });
            }

            return 0;
        };

        _platform.ReplaceWith(replacement, destination);
        _kernel.Fault = (_, _) => 0;
        Assert.True(taken, "the other node's rename did not happen");
        _kernel.Calls.Clear();
        TransferResult next = Transfer(destination, Named("bin2", "d.dll"));

        Assert.Single(_kernel.CallsTo("CreateMutex")); // a fresh source
        Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (next.Method, next.Reason));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin2", "d.dll")));
        Assert.Equal(0, _kernel.OpenHandles);
        Assert.Empty(Directory.GetFiles(Path.GetDirectoryName(destination)!, ".simulated-*"));
    }

    [Fact]
    public void A_clone_moved_by_MoveFileEx_s_fallback_is_not_known_under_its_final_name()
    {
        // Where FileRenameInfoEx is refused (before Windows 10 1607, FAT, some redirectors), MoveFileEx renames by name and
        // leaves no handle on the file it moved: what holds the final name afterwards cannot be told from this clone, so
        // nothing is recorded there, and the file is a fresh source by its times again.
        string source = TestFiles.Write(Named("obj", "m.dll"), 70_000, seed: 10);
        string replacement = Named("bin1", ".clonecopy-1-5.tmp");
        string destination = TestFiles.Write(Named("bin1", "m.dll"), 100, seed: 11);
        Assert.Equal(TransferMethod.Cloned, Transfer(source, replacement).Method);
        _kernel.Fault = (call, _) => call == "RenameByHandle" ? Win32.ErrorInvalidParameter : 0;

        _platform.ReplaceWith(replacement, destination);
        _kernel.Fault = (_, _) => 0;
        Assert.Single(_kernel.CallsTo("MoveFileReplacing"));
        _kernel.Calls.Clear();
        TransferResult next = Transfer(destination, Named("bin2", "m.dll"));

        Assert.Equal(TransferMethod.Cloned, next.Method);
        Assert.Single(_kernel.CallsTo("CreateMutex")); // fresh: its clone made under its mutex and read back whole
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin2", "m.dll")));
    }

    [Fact]
    public void A_rename_of_a_file_the_cloner_did_not_write_costs_no_call()
    {
        string replacement = TestFiles.Write(Named("bin1", ".clonecopy-1-3.tmp"), 100, seed: 5);
        string destination = TestFiles.Write(Named("bin1", "y.dll"), 100, seed: 6);
        Assert.Equal(TransferMethod.Cloned, Transfer(Old(TestFiles.Write(Named("obj", "y.dll"), 70_000, seed: 7)), Named("bin0", "y.dll")).Method); // the cloner exists
        _kernel.Calls.Clear();

        _platform.ReplaceWith(replacement, destination);

        Assert.DoesNotContain(_kernel.Calls, c => c.StartsWith("QueryAllInformation", StringComparison.Ordinal));
        Assert.Equal(3, _kernel.Calls.Count); // the rename itself: CreateFile, RenameByHandle, CloseHandle
    }

    private TransferResult Transfer(string source, string destination) => _transfer.Transfer(source, destination, CancellationToken.None);

    private string Old(string path)
    {
        _kernel.Age(path, TimeSpan.FromHours(1));
        return path;
    }

    private string Named(string folder, string name)
    {
        Directory.CreateDirectory(Path.Combine(_directory, folder));
        return Path.Combine(_directory, folder, name);
    }
}
