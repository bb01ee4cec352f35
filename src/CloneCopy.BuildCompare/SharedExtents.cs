using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.BuildCompare;

/// <summary>
/// The outputs' disk space from their extent maps (Linux FS_IOC_FIEMAP): every physical range any output file
/// occupies, each range counted once however many outputs share it, and how much of that the filesystem marks
/// shared (with another output or with a file outside them, such as the package cache or a source). Unlike the
/// filesystem-wide count, nothing else writing to the disk changes it. Null where extent maps cannot be read
/// (not Linux, or a filesystem without FIEMAP, such as tmpfs).
/// </summary>
public static partial class SharedExtents
{
    public sealed record Usage(long PhysicalBytes, long SharedBytes, long ExclusiveBytes);

    private const uint FsIocFiemap = 0xC020660B;
    private const uint FiemapFlagSync = 0x1;
    private const uint ExtentLast = 0x1;
    private const uint ExtentDataInline = 0x200;
    private const uint ExtentShared = 0x2000;
    private const int HeaderSize = 32;
    private const int ExtentSize = 56;
    private const int ExtentsPerCall = 256;

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
    private static unsafe bool ReadExtents(string path, List<(long Start, long End, bool Shared)> ranges)
    {
        using SafeFileHandle handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        int size = HeaderSize + (ExtentSize * ExtentsPerCall);
        byte* buffer = stackalloc byte[size];
        ulong logical = 0;
        while (true)
        {
            new Span<byte>(buffer, size).Clear();
            *(ulong*)buffer = logical;                       // fm_start
            *(ulong*)(buffer + 8) = ulong.MaxValue;          // fm_length
            *(uint*)(buffer + 16) = FiemapFlagSync;          // fm_flags: flush first, so delayed allocations have blocks
            *(uint*)(buffer + 24) = ExtentsPerCall;          // fm_extent_count
            if (Ioctl((int)handle.DangerousGetHandle(), FsIocFiemap, buffer) != 0)
            {
                return false;
            }

            uint mapped = *(uint*)(buffer + 20);
            if (mapped == 0)
            {
                return true;
            }

            for (int i = 0; i < mapped; i++)
            {
                byte* extent = buffer + HeaderSize + (i * ExtentSize);
                ulong extentLogical = *(ulong*)extent;
                ulong extentPhysical = *(ulong*)(extent + 8);
                ulong length = *(ulong*)(extent + 16);
                uint flags = *(uint*)(extent + 40);
                if ((flags & ExtentDataInline) == 0)
                {
                    ranges.Add(((long)extentPhysical, (long)(extentPhysical + length), (flags & ExtentShared) != 0));
                }

                logical = extentLogical + length;
                if ((flags & ExtentLast) != 0)
                {
                    return true;
                }
            }
        }
    }

    [LibraryImport("libc", EntryPoint = "ioctl", SetLastError = true)]
    private static unsafe partial int Ioctl(int fd, nuint request, byte* argument);
}
