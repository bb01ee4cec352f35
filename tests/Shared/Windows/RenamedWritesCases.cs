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

        _platform.ReplaceWith(replacement, destination);
        _kernel.Calls.Clear();
        TransferResult next = Transfer(destination, Named("bin2", "x.dll"));

        Assert.Equal(TransferMethod.Cloned, next.Method);
        Assert.Empty(_kernel.CallsTo("CreateMutex")); // its data is the shared clusters: not fresh, whatever its times
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin2", "x.dll")));
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
