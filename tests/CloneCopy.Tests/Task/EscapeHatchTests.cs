using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// Environment variables the differential suite cannot cover, because MSBuild's Copy reads them once per
/// process: CloneCopy reads them per task invocation and does what MSBuild does when they are set at start.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class EscapeHatchTests
{
    private readonly LoopFilesystems _filesystems;

    public EscapeHatchTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemTheory]
    [InlineData(null, "cache bytes")]
    [InlineData("1", "new bytes")]
    [InlineData("true", "cache bytes")] // MSBuild honours it only when it is exactly 1
    public void MSBUILDCOPYWITHOUTDELETE_decides_whether_a_hard_linked_destination_is_replaced_or_written_through(string? variable, string expectedCacheContent)
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Ext4);
        string source = Path.Combine(directory, "new.dll");
        string cache = Path.Combine(directory, "cache.dll");
        string destination = Path.Combine(directory, "bin.dll");
        File.WriteAllText(source, "new bytes");
        File.WriteAllText(cache, "cache bytes");
        ProcessRunner.RunChecked("ln", $"\"{cache}\" \"{destination}\"");

        Environment.SetEnvironmentVariable("MSBUILDCOPYWITHOUTDELETE", variable);
        try
        {
            var task = new CloneCopy.Copy { BuildEngine = new TestBuildEngine(), SourceFiles = [new TaskItem(source)], DestinationFiles = [new TaskItem(destination)] };
            Assert.True(task.Execute());
        }
        finally
        {
            Environment.SetEnvironmentVariable("MSBUILDCOPYWITHOUTDELETE", null);
        }

        Assert.Equal("new bytes", File.ReadAllText(destination));
        Assert.Equal(expectedCacheContent, File.ReadAllText(cache));
    }

    [Theory]
    [InlineData("1", 2000, true)]      // single-threaded on request, even for slow copies
    [InlineData(null, 2000, false)]    // slow copies (data copies): helpers join in
    [InlineData(null, 0, true)]        // fast copies (clones): the calling thread alone is faster
    public void Copies_run_on_the_calling_thread_unless_they_are_slow_and_parallelism_is_allowed(string? variable, int microsecondsPerCopy, bool expectCallingThreadOnly)
    {
        string directory = Directory.CreateTempSubdirectory("clonecopy-threads").FullName;
        var sources = Enumerable.Range(0, 60).Select(i => TestFiles.Write(Path.Combine(directory, $"s{i}"), 10, i)).ToArray();
        // A helper the scheduler starts is given time to show itself: all it needs where helpers are the answer (the
        // calling thread waits for it), a bound where they are not (none comes, however long the wait).
        using var recorder = new ThreadRecordingTransfer(microsecondsPerCopy, TimeSpan.FromSeconds(expectCallingThreadOnly ? 2 : 120));
        Environment.SetEnvironmentVariable("MSBUILDCOPYTASKPARALLELISM", variable);
        Func<double> clock = CopyScheduler.Microseconds;
        // The copies' time as the made-up copies say it, not as this machine's load makes it.
        CopyScheduler.Microseconds = () => recorder.Microseconds;
        try
        {
            var task = new CloneCopy.Copy
            {
                BuildEngine = new TestBuildEngine(),
                SourceFiles = sources.Select(s => (ITaskItem)new TaskItem(s)).ToArray(),
                DestinationFolder = new TaskItem(Path.Combine(directory, "out")),
                Transfer = recorder,
            };
            Assert.True(task.Execute());
        }
        finally
        {
            CopyScheduler.Microseconds = clock;
            Environment.SetEnvironmentVariable("MSBUILDCOPYTASKPARALLELISM", null);
            Directory.Delete(directory, recursive: true);
        }

        Assert.Equal(60, recorder.Threads.Count);
        Assert.Equal(expectCallingThreadOnly, recorder.Threads.All(t => t == Environment.CurrentManagedThreadId));
    }

    /// <summary>
    /// Writes an empty file and says it took the given time (on its own clock); records which thread each transfer ran
    /// on. Once the calling thread has copied what the scheduler times, its next copy waits for another thread's.
    /// </summary>
    private sealed class ThreadRecordingTransfer : IFileTransfer, IDisposable
    {
        private readonly int _microseconds;
        private readonly TimeSpan _helperWait;
        private readonly int _callingThread = Environment.CurrentManagedThreadId;
        private readonly ManualResetEventSlim _helperCopied = new();
        private long _elapsed;
        private int _callingThreadCopies;

        public ThreadRecordingTransfer(int microseconds, TimeSpan helperWait) => (_microseconds, _helperWait) = (microseconds, helperWait);

        public void Dispose() => _helperCopied.Dispose();

        public System.Collections.Concurrent.ConcurrentBag<int> Threads { get; } = new();

        /// <summary>The time the copies so far say they took.</summary>
        public double Microseconds => Interlocked.Read(ref _elapsed);

        public TransferResult Transfer(string sourcePath, string destinationPath, CancellationToken cancellationToken)
        {
            Threads.Add(Environment.CurrentManagedThreadId);
            if (Environment.CurrentManagedThreadId != _callingThread)
            {
                _helperCopied.Set();
            }
            else if (++_callingThreadCopies == CopyScheduler.GroupsBeforeDeciding + 1)
            {
                _helperCopied.Wait(_helperWait, cancellationToken);
            }

            File.WriteAllText(destinationPath, string.Empty);
            Interlocked.Add(ref _elapsed, _microseconds);
            return new TransferResult(TransferMethod.Copied, NotClonedReason.NoClonePathOnPlatform, 0);
        }
    }
}
