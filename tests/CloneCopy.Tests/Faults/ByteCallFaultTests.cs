using System;
using System.IO;
using System.Linq;
using CloneCopy.Engine;
using CloneCopy.Platform;
using CloneCopy.Platform.Linux;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Utilities;
using Xunit;
using static CloneCopy.Tests.Faults.ScriptedByteCalls;

namespace CloneCopy.Tests.Faults;

/// <summary>
/// Answers a kernel may give to the calls that move bytes (FICLONE, copy_file_range, read, write) and a test machine
/// does not give on demand, made through the transfer's seam (<see cref="ILinuxByteCalls"/>), on ext4 (no clone: the
/// kernel copy and the buffered copy run). Each test goes through the whole Copy task.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class ByteCallFaultTests
{
    private const int EIO = 5;
    private const int EINTR = 4;
    private const int EINVAL = 22;
    private const int ENOSYS = 38;
    private const int ENOSPC = 28;
    private const int Large = 5 * 1024 * 1024;

    private readonly LoopFilesystems _filesystems;

    public ByteCallFaultTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemFact]
    public void A_zero_from_copy_file_range_half_way_is_finished_with_read_and_write_and_the_whole_file_is_copied()
    {
        // Kernels 5.3-5.18 answer 0 for procfs and sysfs files; FUSE and network filesystems have too. .NET's File.Copy
        // and GNU cp take it for "not this way" and go on with read and write from where it stopped.
        var calls = new ScriptedByteCalls { CopyFileRangeMost = 256 * 1024, CopyFileRangeFault = new Fault(3, 0) };
        var (source, destination) = Files(Large);

        var (succeeded, engine) = Run(calls, source, destination, retries: 0);

        Assert.True(succeeded, engine.Describe());
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
        Assert.Equal(3, calls.CopyFileRanges);
        Assert.True(calls.Reads > 0, "the rest was not read with read()");
    }

    [FilesystemFact]
    public void A_zero_from_the_first_copy_file_range_is_a_buffered_copy_of_the_whole_file()
    {
        var calls = new ScriptedByteCalls { CopyFileRangeFault = new Fault(1, 0) };
        var (source, destination) = Files(100 * 1024);

        var (succeeded, engine) = Run(calls, source, destination, retries: 0);

        Assert.True(succeeded, engine.Describe());
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
    }

    [FilesystemFact]
    public void An_unavailable_answer_from_copy_file_range_half_way_is_finished_with_read_and_write()
    {
        var calls = new ScriptedByteCalls { CopyFileRangeMost = 256 * 1024, CopyFileRangeFault = new Fault(2, EINVAL, Persistent: true) };
        var (source, destination) = Files(Large);

        var (succeeded, engine) = Run(calls, source, destination, retries: 0);

        Assert.True(succeeded, engine.Describe());
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
    }

    /// <summary>
    /// The buffered copy (copy_file_range made unavailable) with writes that move less than they are given: the rest
    /// of each chunk must follow from where the write stopped. The content is random, so writing a chunk's first bytes
    /// again, or skipping some, changes the hash even where the preallocated size stays right.
    /// </summary>
    [FilesystemTheory]
    [InlineData("every write moves at most 1000 bytes")]
    [InlineData("every other write is one byte short")]
    [InlineData("the first write of each chunk moves half")]
    public void Short_writes_are_continued_from_where_they_stopped(string how)
    {
        Func<int, nint, nint> most = how switch
        {
            "every write moves at most 1000 bytes" => (_, count) => 1000,
            "every other write is one byte short" => (n, count) => n % 2 == 1 ? count - 1 : count,
            _ => (n, count) => count == 1024 * 1024 ? count / 2 + 7 : count,
        };
        var calls = new ScriptedByteCalls { CopyFileRangeFault = new Fault(1, ENOSYS, Persistent: true), WriteMost = most };
        var (source, destination) = Files(Large + 12345);

        var (succeeded, engine) = Run(calls, source, destination, retries: 0);

        Assert.True(succeeded, engine.Describe());
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
        Assert.True(calls.Writes > Large / (1024 * 1024), $"only {calls.Writes} writes: the short ones were not followed");
    }

    [FilesystemFact]
    public void A_read_that_ends_before_the_known_size_copies_what_there_was_and_does_not_take_the_sources_time()
    {
        // As File.Copy, and so MSBuild's Copy, does: the copy holds what read() gave. Unlike them, the copy keeps its own
        // time, so it never looks like the source (whose size was another) to anything that compares times.
        var calls = new ScriptedByteCalls { CopyFileRangeFault = new Fault(1, ENOSYS, Persistent: true), ReadFault = new Fault(3, 0) };
        var (source, destination) = Files(Large);

        var (succeeded, engine) = Run(calls, source, destination, retries: 0);

        Assert.True(succeeded, engine.Describe());
        Assert.Equal(2L * 1024 * 1024, new FileInfo(destination).Length);
        Assert.Equal(File.ReadAllBytes(source).AsSpan(0, 2 * 1024 * 1024).ToArray(), File.ReadAllBytes(destination));
        Assert.NotEqual(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(destination));
    }

    /// <summary>
    /// An I/O error half-way through the kernel copy is this attempt failing, not a way of copying that is unavailable:
    /// it goes through MSBuild's retries and codes as the same error from File.Copy goes in MSBuild's Copy, and is not
    /// handed to File.Copy for one more attempt that Retries does not count and the log does not show.
    /// </summary>
    [FilesystemFact]
    public void An_IO_error_half_way_with_no_retries_fails_with_MSB3021_and_leaves_no_destination()
    {
        var calls = new ScriptedByteCalls { CopyFileRangeMost = 256 * 1024, CopyFileRangeFailsFrom = (256 * 1024, EIO) };
        var (source, destination) = Files(Large);
        string sourceHash = FileMetadata.Read(source).ContentHash;

        var (succeeded, engine) = Run(calls, source, destination, retries: 0);

        Assert.False(succeeded);
        var error = Assert.Single(engine.Errors);
        Assert.Equal("MSB3021", error.Code);
        Assert.Contains("Input/output error", error.Message, StringComparison.Ordinal);
        Assert.Empty(engine.Warnings);
        Assert.False(File.Exists(destination), "the half-copied destination was left behind");
        Assert.Equal(sourceHash, FileMetadata.Read(source).ContentHash);
    }

    [FilesystemFact]
    public void An_IO_error_that_lasts_is_retried_as_MSBuild_retries_with_MSB3026_then_MSB3027_and_MSB3021()
    {
        var calls = new ScriptedByteCalls { CopyFileRangeMost = 256 * 1024, CopyFileRangeFailsFrom = (256 * 1024, EIO) };
        var (source, destination) = Files(Large);

        var (succeeded, engine) = Run(calls, source, destination, retries: 2);

        Assert.False(succeeded);
        Assert.Equal(["MSB3026", "MSB3026"], engine.Warnings.Select(w => w.Code));
        Assert.Equal(["MSB3027", "MSB3021"], engine.Errors.Select(e => e.Code));
        Assert.False(File.Exists(destination));
    }

    /// <summary>
    /// File.Copy moves a file in one copy_file_range: a later call is CloneCopy's own, and an error there that read does
    /// not meet (the bad region above is met by both) must not fail what MSBuild's Copy would have copied.
    /// </summary>
    [FilesystemFact]
    public void An_IO_error_from_a_later_copy_file_range_that_read_does_not_meet_is_finished_with_read_and_write()
    {
        var calls = new ScriptedByteCalls { CopyFileRangeMost = 256 * 1024, CopyFileRangeFault = new Fault(2, EIO) };
        var (source, destination) = Files(Large);

        var (succeeded, engine) = Run(calls, source, destination, retries: 2);

        Assert.True(succeeded, engine.Describe());
        Assert.Empty(engine.Warnings);
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
    }

    /// <summary>An interrupted copy_file_range half-way is made again, as File.Copy makes it again: the copy stays in the kernel.</summary>
    [FilesystemFact]
    public void An_interrupted_copy_file_range_half_way_is_made_again()
    {
        var calls = new ScriptedByteCalls { CopyFileRangeMost = 256 * 1024, CopyFileRangeFault = new Fault(3, EINTR) };
        var (source, destination) = Files(Large);

        var (succeeded, engine) = Run(calls, source, destination, retries: 0);

        Assert.True(succeeded, engine.Describe());
        Assert.Empty(engine.Warnings);
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
        Assert.Equal(0, calls.Reads);
        Assert.Equal((Large / (256 * 1024)) + 1, calls.CopyFileRanges);
    }

    [FilesystemFact]
    public void A_write_count_that_does_not_add_up_to_what_was_read_fails_the_copy_and_leaves_no_destination()
    {
        // No kernel answers more than it was given; the check is what keeps a slip in the loop's arithmetic from
        // finishing a file of the right size with the wrong bytes and the source's time.
        var calls = new ScriptedByteCalls { CopyFileRangeFault = new Fault(1, ENOSYS, Persistent: true), };
        var (source, destination) = Files(Large);
        var lying = new LyingWrites(calls);

        var (succeeded, engine) = Run(lying, source, destination, retries: 0);

        Assert.False(succeeded);
        Assert.Equal("MSB3021", Assert.Single(engine.Errors).Code);
        Assert.False(File.Exists(destination), "a destination whose bytes do not add up was left behind");
    }

    /// <summary>
    /// FICLONE's I/O error or full disk, and the same from the first copy_file_range, send the file to the next way of
    /// copying, as in File.Copy (MSBuild's Copy passes there, scripts/fault-lane.sh saw it): a real fault meets the copy.
    /// </summary>
    [FilesystemTheory]
    [InlineData("clone", EIO)]
    [InlineData("clone", ENOSPC)]
    [InlineData("first kernel copy", EIO)]
    [InlineData("first kernel copy", ENOSPC)]
    public void An_error_before_any_byte_moved_falls_back_to_the_next_way_of_copying_as_File_Copy_does(string call, int errno)
    {
        var calls = call == "clone"
            ? new ScriptedByteCalls { CloneFault = new Fault(1, errno, Persistent: true) }
            : new ScriptedByteCalls { CopyFileRangeFault = new Fault(1, errno, Persistent: true) };
        var (source, destination) = Files(Large, call == "clone" ? FilesystemKind.Xfs : FilesystemKind.Ext4);

        var (succeeded, engine) = Run(calls, source, destination, retries: 0);

        Assert.True(succeeded, engine.Describe());
        Assert.Empty(engine.Warnings);
        Assert.Equal(FileMetadata.Read(source), FileMetadata.Read(destination));
    }

    private (string Source, string Destination) Files(int length, FilesystemKind kind = FilesystemKind.Ext4)
    {
        string directory = _filesystems.NewDirectory(kind);
        return (TestFiles.Write(Path.Combine(directory, "src", "a.bin"), length, seed: length), Path.Combine(directory, "out", "a.bin"));
    }

    private static (bool Succeeded, TestBuildEngine Engine) Run(ILinuxByteCalls calls, string source, string destination, int retries)
    {
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source)],
            DestinationFiles = [new TaskItem(destination)],
            Retries = retries,
            RetryDelayMilliseconds = 1,
            Transfer = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>(), calls: calls),
        };
        return (task.Execute(), engine);
    }

    /// <summary>write() that says it moved one byte more than it did on the call the script names: an accounting slip.</summary>
    private sealed unsafe class LyingWrites : ILinuxByteCalls
    {
        private readonly ScriptedByteCalls _inner;

        public LyingWrites(ScriptedByteCalls inner) => _inner = inner;

        public int Clone(int destination, int source) => _inner.Clone(destination, source);

        public nint CopyFileRange(int source, long* sourceOffset, int destination, long* destinationOffset, nuint length) =>
            _inner.CopyFileRange(source, sourceOffset, destination, destinationOffset, length);

        public nint Read(int fd, byte* buffer, nuint count) => _inner.Read(fd, buffer, count);

        public nint Write(int fd, byte* buffer, nuint count)
        {
            nint done = _inner.Write(fd, buffer, count);
            return _inner.Writes == 2 && done > 0 ? done + 1 : done;
        }
    }
}
