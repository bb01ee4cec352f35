using System.Collections.Generic;
using System.Text.RegularExpressions;

namespace CloneCopy.Tests.Integration;

/// <summary>What strace(1)'s record of pread64 and ioctl calls (-y, with file paths) says about clones and their read-back.</summary>
internal static partial class CloneTrace
{
    /// <summary>
    /// The clones made (FICLONE answered 0) and those read back: a read-back is pread64 on the clone's own descriptor (the
    /// same number and file) among the cloning thread's next two traced calls (the verifier reads the source, then the
    /// clone, right after cloning, with pread on the transfer's descriptors). Other preads of those files, or of other
    /// files through a reused descriptor number (the SDK's CopyRefAssembly reading ref/Lib.dll next), are not.
    /// </summary>
    public static (int Clones, int ReadBacks) ClonesAndReadBacks(string[] calls)
    {
        var cloneByThread = new Dictionary<string, (string Destination, int CallsLeft)>();
        int clones = 0, readBacks = 0;
        foreach (string call in calls)
        {
            Match traced = TracedCall().Match(call);
            if (!traced.Success)
            {
                continue;
            }

            string thread = traced.Groups["thread"].Value;
            string descriptor = traced.Groups["descriptor"].Value;
            if (traced.Groups["call"].Value == "ioctl" && FiClone().IsMatch(call))
            {
                clones++;
                cloneByThread[thread] = (descriptor, 2);
            }
            else if (cloneByThread.Remove(thread, out var cloned))
            {
                if (traced.Groups["call"].Value == "pread64" && descriptor == cloned.Destination)
                {
                    readBacks++;
                }
                else if (cloned.CallsLeft > 1)
                {
                    cloneByThread[thread] = (cloned.Destination, cloned.CallsLeft - 1);
                }
            }
        }

        return (clones, readBacks);
    }

    // "1234 pread64(7</x/bin/a.dll>, ..." and "1234 ioctl(7</x/bin/a.dll>, BTRFS_IOC_CLONE or FICLONE, 6) = 0" (strace names
    // the request by both its names).
    [GeneratedRegex(@"^(?<thread>\d+) +(?<call>pread64|ioctl)\((?<descriptor>\d+<[^>]+>)")]
    private static partial Regex TracedCall();

    [GeneratedRegex(@", (?:BTRFS_IOC_CLONE or )?FICLONE, \d+(?:<[^>]+>)?\) = 0")]
    private static partial Regex FiClone();
}
