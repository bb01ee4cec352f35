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
        foreach (string call in Joined(calls))
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

    /// <summary>
    /// The calls with each split one joined again. With -f, a call another thread's call interrupts in the record is
    /// written in two lines, "1234 ioctl(8&lt;/x/bin/a.dll&gt;, FICLONE, 6&lt;/x/a.dll&gt; &lt;unfinished ...&gt;" and later
    /// "1234 &lt;... ioctl resumed&gt;) = 0": only joined does the first say that it cloned. The busier the machine, the more
    /// calls are split, so a clone read back would otherwise be missed when it mattered least.
    /// </summary>
    internal static IEnumerable<string> Joined(IEnumerable<string> calls)
    {
        var unfinished = new Dictionary<string, string>();
        foreach (string call in calls)
        {
            Match begun = Unfinished().Match(call);
            if (begun.Success)
            {
                unfinished[begun.Groups["thread"].Value] = begun.Groups["start"].Value;
                continue;
            }

            Match ended = Resumed().Match(call);
            if (ended.Success && unfinished.Remove(ended.Groups["thread"].Value, out string? start))
            {
                yield return start + ended.Groups["rest"].Value;
                continue;
            }

            yield return call;
        }

        // A call still unfinished when the record ended (its process killed in it): its arguments, without a result.
        foreach (string start in unfinished.Values)
        {
            yield return start;
        }
    }

    // "1234 pread64(7</x/bin/a.dll>, ..." and "1234 ioctl(7</x/bin/a.dll>, BTRFS_IOC_CLONE or FICLONE, 6) = 0" (strace names
    // the request by both its names).
    [GeneratedRegex(@"^(?<thread>\d+) +(?<call>pread64|ioctl)\((?<descriptor>\d+<[^>]+>)")]
    private static partial Regex TracedCall();

    [GeneratedRegex(@"^(?<start>(?<thread>\d+) +.*?) <unfinished \.\.\.>$")]
    private static partial Regex Unfinished();

    [GeneratedRegex(@"^(?<thread>\d+) +<\.\.\. [a-z0-9_]+ resumed>(?<rest>.*)$")]
    private static partial Regex Resumed();

    [GeneratedRegex(@", (?:BTRFS_IOC_CLONE or )?FICLONE, \d+(?:<[^>]+>)?\) = 0")]
    private static partial Regex FiClone();
}
