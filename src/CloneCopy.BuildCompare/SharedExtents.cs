using System;
using System.Collections.Generic;
using System.Linq;

namespace CloneCopy.BuildCompare;

/// <summary>
/// The outputs' disk space from their extent maps (Linux FS_IOC_FIEMAP): every physical range any output file
/// occupies, each range counted once however many outputs share it, and how much of that the filesystem marks
/// shared (with another output or with a file outside them, such as the package cache or a source). Unlike the
/// filesystem-wide count, nothing else writing to the disk changes it. Null where extent maps cannot be read
/// (not Linux, or a filesystem without FIEMAP, such as tmpfs).
/// </summary>
public static class SharedExtents
{
    public sealed record Usage(long PhysicalBytes, long SharedBytes, long ExclusiveBytes);

    public static Usage? Measure(IEnumerable<string> files)
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        var ranges = new List<(long Start, long End, bool Shared)>();
        foreach (string file in files)
        {
            if (!ReadExtents(file, ranges))
            {
                return null;
            }
        }

        // Union of physical ranges: overlapping ranges (the same blocks in two outputs) counted once.
        long physical = 0, shared = 0;
        long coveredTo = long.MinValue;
        foreach (var range in ranges.OrderBy(r => r.Start))
        {
            long start = Math.Max(range.Start, coveredTo);
            if (range.End > start)
            {
                physical += range.End - start;
                if (range.Shared)
                {
                    shared += range.End - start;
                }

                coveredTo = range.End;
            }
        }

        return new Usage(physical, shared, physical - shared);
    }

    /// <summary>Appends the file's physical extents; false when the filesystem cannot say.</summary>
    private static bool ReadExtents(string path, List<(long Start, long End, bool Shared)> ranges)
    {
        if (FileExtents.TryRead(path, out _) is not { } extents)
        {
            return false;
        }

        foreach (FileExtent extent in extents)
        {
            // Inline data has no blocks of its own.
            if (!extent.IsInline)
            {
                ranges.Add(((long)extent.Physical, (long)(extent.Physical + extent.Length), extent.IsShared));
            }
        }

        return true;
    }
}
