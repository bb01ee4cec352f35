using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// How the real-build tests read strace's record: what counts as a clone and as its read-back, in records as a busy
/// machine writes them, with the cloning thread's calls split by other threads' lines.
/// </summary>
public sealed class CloneTraceTests
{
    private const string Clone = "4242 ioctl(9</r/App/bin/Lib.dll>, BTRFS_IOC_CLONE or FICLONE, 8</r/Lib/bin/Lib.dll>) = 0";
    private const string ReadSource = "4242 pread64(8</r/Lib/bin/Lib.dll>, \"MZ\\220\"..., 65536, 0) = 5120";
    private const string ReadClone = "4242 pread64(9</r/App/bin/Lib.dll>, \"MZ\\220\"..., 65536, 0) = 5120";

    [Fact]
    public void A_clone_read_back_by_its_thread_counts_as_one_clone_read_back()
    {
        Assert.Equal((1, 1), CloneTrace.ClonesAndReadBacks([Clone, ReadSource, ReadClone]));
    }

    [Fact]
    public void A_clone_whose_result_another_thread_split_off_still_counts_and_so_does_its_read_back()
    {
        string[] calls =
        [
            "4242 ioctl(9</r/App/bin/Lib.dll>, BTRFS_IOC_CLONE or FICLONE, 8</r/Lib/bin/Lib.dll> <unfinished ...>",
            "4243 pread64(12</r/obj/other.dll>, \"\"..., 4096, 0) = 4096",
            "4242 <... ioctl resumed>) = 0",
            "4242 pread64(8</r/Lib/bin/Lib.dll>,  <unfinished ...>",
            "4243 ioctl(13</r/obj/x>, TCGETS, 0x7ffd) = -1 ENOTTY (Inappropriate ioctl for device)",
            "4242 <... pread64 resumed>\"MZ\\220\"..., 65536, 0) = 5120",
            ReadClone,
        ];

        Assert.Equal((1, 1), CloneTrace.ClonesAndReadBacks(calls));
    }

    [Fact]
    public void A_failed_clone_or_a_read_of_the_same_file_by_another_thread_is_no_clone_read_back()
    {
        string[] calls =
        [
            "4242 ioctl(9</r/App/bin/Lib.dll>, BTRFS_IOC_CLONE or FICLONE, 8</r/Lib/bin/Lib.dll>) = -1 EOPNOTSUPP (Operation not supported)",
            ReadClone,
            Clone,
            "4243 pread64(9</r/App/bin/Lib.dll>, \"MZ\\220\"..., 65536, 0) = 5120",
        ];

        Assert.Equal((1, 0), CloneTrace.ClonesAndReadBacks(calls));
    }
}
