using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Win32.SafeHandles;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// Sources written moments ago (WindowsBlockCloner.FreshSources.cs). The simulator clones a file whose data is still in
/// the cache (<see cref="SimulatedWindowsSystemCalls.WrittenNotFlushed"/>) as microsoft/CopyOnWrite #12 says ReFS does: the
/// clone flushes it first, and a clone of it that starts during that flush reads zeros; or, as git-lfs #6312 reported, as
/// zeros until it is flushed (<see cref="UnflushedSourceClones.ReadAsZeros"/>). A "process" is a transfer chain with a
/// cloner of its own over the one simulated kernel (the files, the share modes and the named mutexes are the kernel's).
/// The volume is first trusted by one clone read back right, so only the mitigation stands between a fresh source and a
/// wrong file nobody reads.
/// </summary>
public abstract class FreshSourceCases : IDisposable
{
    private const int Size = 3 << 20;
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-fresh").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new() { OsBuild = 20348 };
    private readonly EngineDiagnostics _diagnostics = new();
    private int _warmed;

    protected FreshSourceCases() => _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{77777777-0000-0000-0000-000000000077}\");

    public void Dispose()
    {
        foreach (string file in Directory.GetFiles(_directory, "*", SearchOption.AllDirectories))
        {
            File.SetAttributes(file, FileAttributes.Normal);
        }

        Directory.Delete(_directory, recursive: true);
    }

    [Fact]
    public void While_another_process_clones_a_fresh_source_CopyFile_and_a_reader_sharing_read_only_still_open_it_at_every_step()
    {
        // MSBuild's Copy in another node calls CopyFile, which opens its source sharing read and delete; Roslyn and .NET's
        // File.OpenRead share read only. A writable handle on the source, however short, would refuse both.
        ClonerTransfer process = Trusted();
        string source = TestFiles.Write(Named("obj", "x.dll"), Size, seed: 7);
        int cloning = Environment.CurrentManagedThreadId;
        var refused = new List<string>();
        int steps = 0;
        bool meanwhile = false;
        _kernel.Fault = (call, _) =>
        {
            if (Environment.CurrentManagedThreadId != cloning || meanwhile)
            {
                return 0;
            }

            meanwhile = true;
            try
            {
                steps++;
                int copied = _kernel.CopyFile(source, Named("peer", $"{steps}.dll"));
                int read = _kernel.CreateFile(source, Win32.GenericRead, Win32.FileShareRead, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle reader);
                _kernel.CloseHandle(reader);
                if (copied != 0 || read != 0)
                {
                    refused.Add($"during {call}: CopyFile {copied}, a reader sharing read {read}");
                }
            }
            finally
            {
                meanwhile = false;
            }

            return 0;
        };

        TransferResult result = process.Transfer(source, Named("bin", "x.dll"), CancellationToken.None);

        _kernel.Fault = (_, _) => 0;
        Assert.Empty(refused);
        Assert.True(steps >= 10, $"{steps} steps");
        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin", "x.dll")));
        Assert.Empty(_kernel.CallsTo("FlushFileBuffers"));
    }

    [Fact]
    public void Two_processes_cloning_one_fresh_source_at_once_take_turns_and_both_get_its_bytes()
    {
        // ReFS flushes an unflushed source inside the clone, and a clone that starts meanwhile reads zeros (#12). The second
        // process starts while the first is about to clone, and must wait for it: neither refused (a sharing violation,
        // which would send it to a copy) nor cloned at the same time.
        _kernel.CloneFlushMilliseconds = 300;
        ClonerTransfer first = Trusted();
        ClonerTransfer second = Trusted();
        string source = TestFiles.Write(Named("obj", "x.dll"), Size, seed: 8);
        _kernel.WrittenNotFlushed(source);
        int firstThread = Environment.CurrentManagedThreadId;
        System.Threading.Tasks.Task<TransferResult>? other = null;
        int openedBySecond = 0, callsAfterItsOpen = 0;
        _kernel.Fault = (call, subject) =>
        {
            if (Environment.CurrentManagedThreadId != firstThread)
            {
                if (Volatile.Read(ref openedBySecond) != 0)
                {
                    Interlocked.Increment(ref callsAfterItsOpen); // the open has returned: the second process is past it
                }
                else if (call == "CreateFile" && subject == source)
                {
                    Volatile.Write(ref openedBySecond, 1);
                }
            }
            else if (other is null && call is "DuplicateExtents" or "FlushFileBuffers")
            {
                // The first process is about to clone (or, as before, to flush): the second starts and opens the source.
                other = System.Threading.Tasks.Task.Factory.StartNew(() => second.Transfer(source, Named("bin2", "x.dll"), CancellationToken.None), TaskCreationOptions.LongRunning);
                SpinWait.SpinUntil(() => Volatile.Read(ref callsAfterItsOpen) > 0 || other.IsCompleted, TimeSpan.FromSeconds(10));
            }

            return 0;
        };

        TransferResult mine = first.Transfer(source, Named("bin1", "x.dll"), CancellationToken.None);
        TransferResult theirs = other!.Result;

        _kernel.Fault = (_, _) => 0;
        Assert.Equal((TransferMethod.Cloned, NotClonedReason.None), (mine.Method, mine.Reason));
        Assert.Equal((TransferMethod.Cloned, NotClonedReason.None), (theirs.Method, theirs.Reason));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin1", "x.dll")));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin2", "x.dll")));
        Assert.True(_kernel.CallsTo("WaitForMutex").Count() >= 2, "both processes took the source's mutex");
        Assert.Empty(_kernel.CallsTo("FlushFileBuffers"));
        Assert.False(_diagnostics.TryTake(out _));
        Assert.Equal(0, _kernel.OpenHandles);
    }

    [Fact]
    public void Many_threads_cloning_one_source_written_moments_ago_all_get_its_bytes()
    {
        _kernel.CloneFlushMilliseconds = 100;
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("obj", "x.dll"), Size, seed: 9);
        _kernel.WrittenNotFlushed(source);

        // Each look at the source takes a while, so that the threads' clones would overlap as on a busy volume.
        _kernel.Fault = (call, _) =>
        {
            if (call == "QueryAllInformation")
            {
                Thread.Sleep(20);
            }

            return 0;
        };
        TransferResult[] results = new TransferResult[16];
        Parallel.For(0, results.Length, new ParallelOptions { MaxDegreeOfParallelism = 8 }, i =>
            results[i] = transfer.Transfer(source, Named($"bin{i}", "x.dll"), CancellationToken.None));

        byte[] expected = File.ReadAllBytes(source);
        Assert.All(results, r => Assert.Equal(TransferMethod.Cloned, r.Method));
        Assert.All(Enumerable.Range(0, results.Length), i => Assert.True(expected.AsSpan().SequenceEqual(File.ReadAllBytes(Named($"bin{i}", "x.dll"))), $"bin{i}/x.dll differs from its source"));
        Assert.False(_kernel.IsUnflushed(source)); // flushed by the first clone, as ReFS does
        Assert.Empty(_kernel.CallsTo("FlushFileBuffers"));
        Assert.False(_diagnostics.TryTake(out _));
        Assert.Equal(0, _kernel.OpenHandles);
    }

    [Fact]
    public void A_fresh_source_whose_clone_reads_zeros_is_caught_by_the_whole_read_back_and_copied_right()
    {
        // git-lfs #6312: the clone of a file whose data is still in the cache captured zeros, one clone at a time.
        _kernel.UnflushedSources = UnflushedSourceClones.ReadAsZeros;
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("obj", "z.dll"), Size, seed: 10);
        File.SetAttributes(source, FileAttributes.ReadOnly);
        _kernel.WrittenNotFlushed(source);
        int readBacks = transfer.Verifier.ReadBacks;

        TransferResult result = transfer.Transfer(source, Named("bin", "z.dll"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (result.Method, result.Reason));
        Assert.Equal(readBacks + 1, transfer.Verifier.ReadBacks);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin", "z.dll")));
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(Named("bin", "z.dll")));
        Assert.True(File.GetAttributes(Named("bin", "z.dll")).HasFlag(FileAttributes.ReadOnly));
        Assert.True(_diagnostics.TryTake(out EngineDiagnostic said));
        Assert.Equal(EngineDiagnosticKind.CloneReadBackDiffered, said.Kind);
        Assert.Empty(_kernel.CallsTo("FlushFileBuffers")); // never a writable handle on a file CloneCopy did not write
    }

    [Fact]
    public void A_fresh_source_is_read_back_whole_until_one_clone_of_it_reads_back_right_and_an_old_one_never()
    {
        ClonerTransfer transfer = Trusted();
        string fresh = TestFiles.Write(Named("obj", "f.dll"), 10_000, seed: 11);
        string old = Old(TestFiles.Write(Named("obj", "o.dll"), 10_000, seed: 12));
        int readBacks = transfer.Verifier.ReadBacks;
        _kernel.Calls.Clear();

        foreach (int i in Enumerable.Range(1, 3))
        {
            Assert.Equal(TransferMethod.Cloned, transfer.Transfer(fresh, Named($"b{i}", "f.dll"), CancellationToken.None).Method);
            Assert.Equal(TransferMethod.Cloned, transfer.Transfer(old, Named($"b{i}", "o.dll"), CancellationToken.None).Method);
        }

        Assert.Equal(readBacks + 1, transfer.Verifier.ReadBacks);
        Assert.Single(_kernel.CallsTo("CreateMutex"));
        Assert.Empty(_kernel.CallsTo("FlushFileBuffers"));
    }

    [Fact]
    public void A_source_changed_90_seconds_ago_is_fresh_and_one_changed_3_minutes_ago_is_not()
    {
        // The window is two minutes (FreshSourceTicks): a source from the step before is inside it, one from an earlier
        // build outside it. A unit slip (minutes read as a fraction of a second) would leave every build output outside.
        ClonerTransfer transfer = Trusted();
        string recent = Aged(TestFiles.Write(Named("obj", "recent.dll"), 10_000, seed: 13), TimeSpan.FromSeconds(90));
        string earlier = Aged(TestFiles.Write(Named("obj", "earlier.dll"), 10_000, seed: 14), TimeSpan.FromMinutes(3));
        int readBacks = transfer.Verifier.ReadBacks;

        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(earlier, Named("bin", "earlier.dll"), CancellationToken.None).Method);
        Assert.Equal(readBacks, transfer.Verifier.ReadBacks);
        Assert.Empty(_kernel.CallsTo("CreateMutex"));

        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(recent, Named("bin", "recent.dll"), CancellationToken.None).Method);
        Assert.Equal(readBacks + 1, transfer.Verifier.ReadBacks);
        Assert.Single(_kernel.CallsTo("CreateMutex"));
    }

    [Fact]
    public void A_source_carrying_FILE_ATTRIBUTE_TEMPORARY_is_fresh_whatever_its_age()
    {
        // "Lazy writers do not flush temporary files" (File Caching): an hour-old temporary file may have its data in the
        // cache still, and its clone be zeros (the #6312 form here, so that only the whole read-back can catch them).
        _kernel.UnflushedSources = UnflushedSourceClones.ReadAsZeros;
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("obj", "t.dll"), Size, seed: 15);
        MarkTemporary(source);
        Old(source);
        _kernel.WrittenNotFlushed(source);

        TransferResult result = transfer.Transfer(source, Named("bin", "t.dll"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.CloneReadBackDiffered), (result.Method, result.Reason));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin", "t.dll")));
        Assert.Single(_kernel.CallsTo("CreateMutex"));
    }

    [Fact]
    public void A_chain_of_copies_pays_the_fresh_source_cost_at_its_first_link_only()
    {
        // obj\x.dll, fresh, into bin1; bin1\x.dll into bin2 (a project's output copied as the next one's CopyLocal) and so
        // on: every destination is as fresh by its times as its source, but each was cloned by this process, its data the
        // shared clusters. Before: a flush (a device cache flush on ReFS) at every link.
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("obj", "x.dll"), Size, seed: 16);
        int readBacks = transfer.Verifier.ReadBacks;
        _kernel.Calls.Clear();

        string from = source;
        foreach (int link in Enumerable.Range(1, 4))
        {
            string to = Named($"bin{link}", "x.dll");
            Assert.Equal(TransferMethod.Cloned, transfer.Transfer(from, to, CancellationToken.None).Method);
            Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(to));
            from = to;
        }

        Assert.Single(_kernel.CallsTo("CreateMutex"));
        Assert.Equal(readBacks + 1, transfer.Verifier.ReadBacks);
        Assert.Empty(_kernel.CallsTo("FlushFileBuffers"));
    }

    [Fact]
    public void What_this_process_cloned_is_known_for_one_build_and_a_file_changed_since_is_fresh_again()
    {
        ClonerTransfer transfer = Trusted();
        transfer.UseVerdictsOf(new BuildVerdicts());
        TrustVolume(transfer);
        string source = TestFiles.Write(Named("obj", "x.dll"), 10_000, seed: 17);
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(source, Named("bin1", "x.dll"), CancellationToken.None).Method);
        _kernel.Calls.Clear();

        // This build: bin1\x.dll is this process's clone, not fresh.
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(Named("bin1", "x.dll"), Named("bin2", "x.dll"), CancellationToken.None).Method);
        Assert.Empty(_kernel.CallsTo("CreateMutex"));

        // Written by another process meanwhile (same length, same time: only its ChangeTime says so): fresh again.
        using (var stream = new FileStream(Named("bin2", "x.dll"), FileMode.Open, FileAccess.Write))
        {
            stream.WriteByte(42);
        }

        File.SetLastWriteTimeUtc(Named("bin2", "x.dll"), File.GetLastWriteTimeUtc(Named("bin1", "x.dll")));
        _kernel.ChangedElsewhere(Named("bin2", "x.dll"));
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(Named("bin2", "x.dll"), Named("bin3", "x.dll"), CancellationToken.None).Method);
        Assert.Single(_kernel.CallsTo("CreateMutex"));

        // The next build on this node knows nothing of the last one's files.
        transfer.UseVerdictsOf(new BuildVerdicts());
        TrustVolume(transfer);
        _kernel.Calls.Clear();
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(Named("bin1", "x.dll"), Named("bin4", "x.dll"), CancellationToken.None).Method);
        Assert.Single(_kernel.CallsTo("CreateMutex"));
    }

    [Fact]
    public void CLONECOPY_TEST_FRESH_SOURCES_unguarded_turns_the_mitigation_off()
    {
        // For CI only: with the mitigation off, a zero clone of a fresh source on a trusted volume goes unseen, which is
        // what the switch is for (showing whether the race exists on an image). Any other value leaves it on.
        _kernel.UnflushedSources = UnflushedSourceClones.ReadAsZeros;
        foreach ((string? value, bool guarded) in new (string?, bool)[] { ("unguarded", false), ("UNGUARDED", false), (null, true), ("guarded", true), (string.Empty, true) })
        {
            ClonerTransfer transfer = Trusted(new FixedEnvironment(WindowsBlockCloner.FreshSourcesVariable, value));
            string source = TestFiles.Write(Named("obj", $"u{_warmed}.dll"), 10_000, seed: 18);
            _kernel.WrittenNotFlushed(source);
            _kernel.Calls.Clear();

            TransferResult result = transfer.Transfer(source, Named("bin", $"u{_warmed}.dll"), CancellationToken.None);

            bool same = File.ReadAllBytes(source).AsSpan().SequenceEqual(File.ReadAllBytes(Named("bin", $"u{_warmed}.dll")));
            Assert.True(guarded == same, $"'{value}': {result.Method} {result.Reason}, the destination {(same ? "holds" : "does not hold")} the source's bytes");
            Assert.Equal(guarded ? 1 : 0, _kernel.CallsTo("CreateMutex").Count());
            while (_diagnostics.TryTake(out _))
            {
            }
        }
    }

    [Fact]
    public void A_fresh_copy_is_flushed_before_it_becomes_the_seed_of_later_clones_and_is_the_only_file_flushed()
    {
        // The copy made at the link limit is CloneCopy's own file: it alone may be flushed through a writable handle.
        _kernel.UnflushedSources = UnflushedSourceClones.ReadAsZeros;
        ClonerTransfer transfer = Trusted();
        string source = Old(TestFiles.Write(Named("pkg", "p.dll"), 70_000, seed: 19));
        string seed = Named("p1", "p.dll");
        int duplicates = 0, seedOpens = 0;
        _kernel.Fault = (call, subject) =>
        {
            if (call == "CreateFile" && subject == seed && ++seedOpens == 1)
            {
                _kernel.WrittenNotFlushed(seed); // File.Copy's copy, just made: its data in the cache when the cloner first opens it (to flush it)
            }

            return call == "DuplicateExtents" && ++duplicates == 1 ? Win32.ErrorBlockTooManyReferences : 0;
        };
        Assert.Equal(NotClonedReason.LinkLimit, transfer.Transfer(source, seed, CancellationToken.None).Reason);

        TransferResult result = transfer.Transfer(source, Named("p2", "p.dll"), CancellationToken.None);

        Assert.Equal(TransferMethod.Cloned, result.Method);
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("p2", "p.dll")));
        Assert.Equal(new[] { $"FlushFileBuffers {seed}" }, _kernel.CallsTo("FlushFileBuffers"));
    }

    [Fact]
    public void A_mutex_its_owner_thread_abandoned_is_owned_by_the_next_clone_which_clones_and_releases_it()
    {
        // WAIT_ABANDONED is ownership (Mutex Objects: "the waiting thread gets ownership"): a node killed while one of
        // its clones held a fresh source's mutex leaves it to the next waiter, which clones as after any wait: not alone,
        // not after the limit, and it releases what it owns.
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("obj", "a.dll"), Size, seed: 20);
        string? name = null;
        SafeWaitHandle? leftOpen = null;
        int ownerTook = -1;
        _kernel.Fault = (call, subject) =>
        {
            if (call == "CreateMutex" && name is null)
            {
                name = subject;
                OnAThreadThatEnds(() =>
                {
                    _kernel.CreateMutex(subject, out SafeWaitHandle mutex);
                    ownerTook = _kernel.WaitForMutex(mutex, 0);
                    leftOpen = mutex; // ends owning it, its handle still open (another process's, say)
                });
            }

            return 0;
        };
        _kernel.Calls.Clear();

        TransferResult result = transfer.Transfer(source, Named("bin", "a.dll"), CancellationToken.None);

        _kernel.Fault = (_, _) => 0;
        Assert.Equal(0, ownerTook);
        Assert.Equal((TransferMethod.Cloned, NotClonedReason.None), (result.Method, result.Reason));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin", "a.dll")));
        Assert.Equal(2, _kernel.CallsTo("WaitForMutex").Count()); // the ended owner's, and the clone's one wait
        Assert.Single(_kernel.CallsTo("ReleaseMutex")); // the clone's: it owned the mutex
        int next = -1;
        OnAThreadThatEnds(() =>
        {
            _kernel.CreateMutex(name!, out SafeWaitHandle mutex);
            next = _kernel.WaitForMutex(mutex, 0);
            _kernel.ReleaseMutex(mutex);
            _kernel.CloseMutex(mutex);
        });
        Assert.Equal(0, next); // free, not abandoned still
        _kernel.CloseMutex(leftOpen!);
    }

    [Fact]
    public void A_clone_that_cannot_have_the_mutex_within_the_limit_goes_on_alone_and_is_read_back_whole()
    {
        // A process stopped while holding the mutex (a debugger, a squatter of the name): after the limit (600 ms here,
        // slices of 250 ms: three waits) the clone is made alone, read back whole as every clone of a fresh source.
        ClonerTransfer transfer = Trusted(waitMilliseconds: 600);
        string source = TestFiles.Write(Named("obj", "g.dll"), Size, seed: 21);
        using var holder = new MutexHolder(_kernel);
        _kernel.Fault = (call, subject) =>
        {
            if (call == "CreateMutex")
            {
                holder.Hold(subject);
            }

            return 0;
        };
        int readBacks = transfer.Verifier.ReadBacks;
        _kernel.Calls.Clear();

        TransferResult result = transfer.Transfer(source, Named("bin", "g.dll"), CancellationToken.None);

        _kernel.Fault = (_, _) => 0;
        Assert.Equal((TransferMethod.Cloned, NotClonedReason.None), (result.Method, result.Reason));
        Assert.Equal(File.ReadAllBytes(source), File.ReadAllBytes(Named("bin", "g.dll")));
        Assert.Equal(readBacks + 1, transfer.Verifier.ReadBacks);
        Assert.Equal(1 + 3, _kernel.CallsTo("WaitForMutex").Count()); // the holder's, then three slices
        Assert.Empty(_kernel.CallsTo("ReleaseMutex")); // never owned
        Assert.Single(_kernel.CallsTo("CloseMutex")); // and its handle closed
        holder.Dispose();
        Assert.Equal(0, _kernel.OpenHandles);
    }

    [Fact]
    public void A_clone_cancelled_while_it_waits_for_the_mutex_stops_and_leaves_no_file_and_no_handle()
    {
        // The build is cancelled while another clone holds the mutex: the wait stops at the next slice (never after the
        // limit), the half-made destination goes, nothing stays open.
        ClonerTransfer transfer = Trusted();
        string source = TestFiles.Write(Named("obj", "c.dll"), Size, seed: 22);
        string destination = Named("bin", "c.dll");
        using var holder = new MutexHolder(_kernel);
        using var cancellation = new CancellationTokenSource();
        int cloning = Environment.CurrentManagedThreadId;
        _kernel.Fault = (call, subject) =>
        {
            if (call == "CreateMutex" && Environment.CurrentManagedThreadId == cloning)
            {
                holder.Hold(subject);
            }
            else if (call == "WaitForMutex" && Environment.CurrentManagedThreadId == cloning)
            {
                cancellation.Cancel();
            }

            return 0;
        };
        _kernel.Calls.Clear();

        Assert.ThrowsAny<OperationCanceledException>(() => transfer.Transfer(source, destination, cancellation.Token));

        _kernel.Fault = (_, _) => 0;
        Assert.False(File.Exists(destination), "the half-made destination was left");
        Assert.Equal(1 + 1, _kernel.CallsTo("WaitForMutex").Count()); // the holder's, then one slice
        Assert.Empty(_kernel.CallsTo("ReleaseMutex"));
        Assert.Single(_kernel.CallsTo("CloseMutex"));
        holder.Dispose();
        Assert.Equal(0, _kernel.OpenHandles);
    }

    /// <summary>A transfer (a process) whose volume has had one clone read back right (an old file): later clones there are not read back.</summary>
    private ClonerTransfer Trusted(CloneCopy.CopyEnvironment? environment = null, int waitMilliseconds = WindowsBlockCloner.DefaultSerializedCloneWaitMilliseconds)
    {
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(_kernel, environment: environment) { SerializedCloneWaitMilliseconds = waitMilliseconds }, _diagnostics);
        TrustVolume(transfer);
        return transfer;
    }

    private static void OnAThreadThatEnds(Action action)
    {
        var thread = new Thread(() => action());
        thread.Start();
        Assert.True(thread.Join(TimeSpan.FromSeconds(30)));
    }

    private void TrustVolume(ClonerTransfer transfer)
    {
        int warm = Interlocked.Increment(ref _warmed);
        string first = Old(TestFiles.Write(Named("warm", $"first{warm}.dll"), 10_000, seed: 1));
        int readBacks = transfer.Verifier.ReadBacks;
        Assert.Equal(TransferMethod.Cloned, transfer.Transfer(first, Named("warm", $"first{warm}.copy"), CancellationToken.None).Method);
        Assert.Equal(readBacks + 1, transfer.Verifier.ReadBacks);
    }

    /// <summary>A source from an earlier build: written and changed longer ago than the fresh-source window.</summary>
    private string Old(string path) => Aged(path, TimeSpan.FromHours(1));

    private string Aged(string path, TimeSpan age)
    {
        _kernel.Age(path, age);
        return path;
    }

    /// <summary>Gives the file FILE_ATTRIBUTE_TEMPORARY through the seam (FileBasicInformation), as a tool writing temporary outputs would.</summary>
    private void MarkTemporary(string path)
    {
        Assert.Equal(0, _kernel.CreateFile(path, Win32.GenericWrite, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle handle));
        Assert.Equal(0, _kernel.SetBasicInformation(handle, default, Win32.FileAttributeTemporary | ((File.GetAttributes(path) & FileAttributes.ReadOnly) != 0 ? Win32.FileAttributeReadOnly : 0)));
        _kernel.CloseHandle(handle);
    }

    private string Named(string folder, string name)
    {
        Directory.CreateDirectory(Path.Combine(_directory, folder));
        return Path.Combine(_directory, folder, name);
    }

    /// <summary>Another clone holding a mutex (on a thread of its own, alive) until disposed.</summary>
    private sealed class MutexHolder : IDisposable
    {
        private readonly SimulatedWindowsSystemCalls _kernel;
        private readonly ManualResetEventSlim _taken = new();
        private readonly ManualResetEventSlim _done = new();
        private Thread? _thread;
        private bool _disposed;

        public MutexHolder(SimulatedWindowsSystemCalls kernel) => _kernel = kernel;

        /// <summary>Takes the mutex of that name on its thread, once, and returns when it owns it.</summary>
        public void Hold(string name)
        {
            if (_thread is not null)
            {
                return;
            }

            _thread = new Thread(() =>
            {
                _kernel.CreateMutex(name, out SafeWaitHandle mutex);
                _kernel.WaitForMutex(mutex, 0);
                _taken.Set();
                _done.Wait();
                _kernel.ReleaseMutex(mutex);
                _kernel.CloseMutex(mutex);
            });
            _thread.Start();
            Assert.True(_taken.Wait(TimeSpan.FromSeconds(30)));
        }

        public void Dispose()
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            _done.Set();
            _thread?.Join(TimeSpan.FromSeconds(30));
            _taken.Dispose();
            _done.Dispose();
        }
    }

    /// <summary>An environment with one variable set (or unset), read as the task reads the process's.</summary>
    private sealed class FixedEnvironment : CloneCopy.CopyEnvironment
    {
        private readonly string _name;
        private readonly string? _value;

        public FixedEnvironment(string name, string? value)
        {
            _name = name;
            _value = value;
        }

        public override string? Variable(string name) => name == _name ? _value : null;
    }
}
