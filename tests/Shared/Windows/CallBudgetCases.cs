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
/// What one cloned file costs on Windows, counted call by call: every kernel32 and ntdll call goes through the
/// seam (<see cref="IWindowsSystemCalls"/>), so the simulator sees them all. The counts are exact: a new call
/// changes this test and docs/windows.md ("The calls per cloned file") together. Measured for a file of a build on a
/// volume already known (volume, folder and CopyFile answers are per build, not per file).
/// </summary>
public abstract class CallBudgetCases : IDisposable
{
    private const string VolumeName = @"\\?\Volume{55555555-0000-0000-0000-000000000005}\";
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-budget").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new();
    private readonly SimulatedVolume _volume;

    protected CallBudgetCases() => _volume = _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, VolumeName);

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_small_file_costs_11_calls()
    {
        (ClonerTransfer transfer, WindowsBlockCloner cloner) = Warm();
        string source = Old(TestFiles.Write(Path.Combine(_directory, "src", "small.dll"), 10_000, seed: 3));

        int calls = Measure(transfer, cloner, source, Path.Combine(_directory, "out", "small.dll"));

        Assert.True(calls == 11, Described(calls));
        Assert.Equal(0, _kernel.OpenHandles);
    }

    [Fact]
    public void A_file_of_5_GiB_costs_13_calls()
    {
        (ClonerTransfer transfer, WindowsBlockCloner cloner) = Warm();
        string source = Path.Combine(_directory, "src", "large.bin");
        SparseHostFiles.Create(source, 5L << 30); // nothing written, nothing allocated on the host

        Old(source);

        _kernel.CopyData = false;
        int calls = Measure(transfer, cloner, source, Path.Combine(_directory, "out", "large.bin"));

        Assert.True(calls == 13, Described(calls));
    }

    [Fact]
    public void A_clone_from_a_reseed_copy_costs_14_calls_and_reads_no_data()
    {
        (ClonerTransfer transfer, WindowsBlockCloner cloner) = Warm();
        string source = Old(TestFiles.Write(Path.Combine(_directory, "src", "pkg.dll"), 10_000, seed: 4));
        int duplicates = 0;
        _kernel.Fault = (call, _) => call == "DuplicateExtents" && ++duplicates == 1 ? Win32.ErrorBlockTooManyReferences : 0;
        Assert.Equal(NotClonedReason.LinkLimit, transfer.Transfer(source, Path.Combine(_directory, "out", "pkg1.dll"), CancellationToken.None).Reason);

        int calls = Measure(transfer, cloner, source, Path.Combine(_directory, "out", "pkg2.dll"));

        Assert.Contains(_kernel.Calls, c => c.StartsWith($"CreateFile {Path.Combine(_directory, "out", "pkg1.dll")} ", StringComparison.Ordinal));
        Assert.True(calls == 14, Described(calls));
        Assert.Equal(0, _kernel.OpenHandles);
    }

    [Fact]
    public void A_source_written_moments_ago_costs_5_calls_more_until_a_clone_of_it_reads_back_right_and_a_clone_of_that_clone_none()
    {
        // A fresh source (WindowsBlockCloner.FreshSources.cs): its file ID (GetFileInformationByHandleEx(FileIdInfo)) for
        // the mutex's name, CreateMutexW, the wait (one call when no other clone of it holds the mutex), ReleaseMutex
        // after the clone FSCTLs, CloseHandle of the mutex; and a whole read-back (not a call of the seam). Once a clone of
        // it has read back whole and right, it is on the volume: 11 again. So is a clone of that clone (the next link of a
        // chain). No call at all for a source that is not fresh: the counts above.
        (ClonerTransfer transfer, WindowsBlockCloner cloner) = Warm();
        string source = TestFiles.Write(Path.Combine(_directory, "src", "fresh.dll"), 10_000, seed: 5);

        int first = Measure(transfer, cloner, source, Path.Combine(_directory, "out", "fresh1.dll"));
        Assert.True(first == 16, Described(first));

        // The mutex is held for the clone FSCTLs only: taken after the destination is made and sized, released right
        // after the last FSCTL (a longer hold makes the other nodes' clones of this file wait for nothing).
        string[] names = _kernel.Calls.Select(c => c.Split(' ')[0]).ToArray();
        int sized = Array.IndexOf(names, "SetEndOfFile");
        Assert.True(sized >= 0 && names.Skip(sized + 1).Take(5).SequenceEqual(["GetFileId", "CreateMutex", "WaitForMutex", "DuplicateExtents", "ReleaseMutex"]), Described(first));
        int second = Measure(transfer, cloner, source, Path.Combine(_directory, "out", "fresh2.dll"));
        Assert.True(second == 11, Described(second));
        int chained = Measure(transfer, cloner, Path.Combine(_directory, "out", "fresh1.dll"), Path.Combine(_directory, "out", "fresh3.dll"));
        Assert.True(chained == 11, Described(chained));
        Assert.Equal(0, _kernel.OpenHandles);
    }

    /// <summary>A source from an earlier build: written and changed longer ago than the fresh-source window.</summary>
    private string Old(string path)
    {
        _kernel.Age(path, TimeSpan.FromHours(1));
        return path;
    }

    /// <summary>
    /// A transfer whose volume and folders are known: one file transferred from src/ to out/ first, large enough to have
    /// found out that CopyFile does not clone on this volume (once per volume per build; its copy is kept).
    /// </summary>
    private (ClonerTransfer Transfer, WindowsBlockCloner Cloner) Warm()
    {
        WindowsBlockCloner? cloner = null;
        var transfer = new ClonerTransfer(() => cloner = new WindowsBlockCloner(_kernel), new EngineDiagnostics());
        string first = TestFiles.Write(Path.Combine(_directory, "src", "first.dll"), (int)WindowsBlockCloner.CopyFileProbeMinimum, seed: 1);
        Directory.CreateDirectory(Path.Combine(_directory, "out"));
        Assert.Equal(NotClonedReason.CopyFileCopiedWhenAsked, transfer.Transfer(first, Path.Combine(_directory, "out", "first.dll"), CancellationToken.None).Reason);
        return (transfer, cloner!);
    }

    /// <summary>
    /// The calls one more file costs: every call the simulator saw, plus the by-path metadata calls the engine
    /// makes through .NET after a clone whose cloner does not set metadata itself (File.SetAttributes twice: two
    /// SetFileAttributesW; File.SetLastWriteTimeUtc: CreateFileW, SetFileInformationByHandle, CloseHandle).
    /// </summary>
    private int Measure(ClonerTransfer transfer, WindowsBlockCloner cloner, string source, string destination)
    {
        _kernel.Calls.Clear();
        TransferResult result = transfer.Transfer(source, destination, CancellationToken.None);
        Assert.Equal(TransferMethod.Cloned, result.Method);
        return _kernel.Calls.Count + (cloner.ClonesKeepMetadata ? 0 : 5);
    }

    private string Described(int calls) => $"{calls} calls ({_kernel.Calls.Count} through the seam):\n{string.Join("\n", _kernel.Calls)}";
}
