using System;
using System.Collections.Generic;
using System.ComponentModel;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>One extent from FIEMAP.</summary>
public readonly record struct Extent(ulong Logical, ulong Physical, ulong Length, uint Flags)
{
    public const uint SharedFlag = 0x2000;   // FIEMAP_EXTENT_SHARED
    public const uint InlineFlag = 0x200;    // FIEMAP_EXTENT_DATA_INLINE

    public bool IsShared => (Flags & SharedFlag) != 0;
}

/// <summary>
/// Reads a file's extent map with the FS_IOC_FIEMAP ioctl (FIEMAP_FLAG_SYNC, so delayed allocation is
/// resolved first). This is how tests prove a destination really shares its source's blocks.
/// </summary>
public static unsafe class ExtentMap
{
    private const ulong FsIocFiemap = 0xC020660B;
    private const uint FiemapFlagSync = 0x1;
    private const int MaxExtents = 512;
    private const int HeaderSize = 32;
    private const int ExtentSize = 56;

    public static IReadOnlyList<Extent> Read(string path)
    {
        using var file = File.OpenHandle(path, FileMode.Open, FileAccess.Read);
        byte[] buffer = new byte[HeaderSize + MaxExtents * ExtentSize];
        fixed (byte* start = buffer)
        {
            *(ulong*)(start + 0) = 0;                // fm_start
            *(ulong*)(start + 8) = ulong.MaxValue;   // fm_length
            *(uint*)(start + 16) = FiemapFlagSync;   // fm_flags
            *(uint*)(start + 24) = MaxExtents;       // fm_extent_count
            if (Ioctl((int)file.DangerousGetHandle(), FsIocFiemap, start) != 0)
            {
                throw new Win32Exception(Marshal.GetLastPInvokeError(), $"FIEMAP failed on {path}");
            }

            uint mapped = *(uint*)(start + 20);
            var extents = new List<Extent>((int)mapped);
            for (int i = 0; i < mapped; i++)
            {
                byte* e = start + HeaderSize + i * ExtentSize;
                extents.Add(new Extent(*(ulong*)e, *(ulong*)(e + 8), *(ulong*)(e + 16), *(uint*)(e + 40)));
            }

            return extents;
        }
    }

    /// <summary>
    /// True when the destination's data lives in exactly the source's physical blocks, flagged shared:
    /// a clone, not a copy that merely looks alike.
    /// </summary>
    public static bool SharesAllExtents(string source, string destination, out string explanation)
    {
        var from = Read(source);
        var to = Read(destination);
        explanation = $"source extents: [{Describe(from)}]; destination extents: [{Describe(to)}]";
        if (to.Count == 0 || to.Count != from.Count)
        {
            return false;
        }

        return from.Zip(to).All(p => p.First.IsShared && p.Second.IsShared
            && p.First.Physical == p.Second.Physical && p.First.Logical == p.Second.Logical);
    }

    /// <summary>True when no extent of the file is shared with anything.</summary>
    public static bool SharesNothing(string path) => Read(path).All(e => !e.IsShared);

    private static string Describe(IEnumerable<Extent> extents) =>
        string.Join(", ", extents.Select(e => $"{e.Logical}->{e.Physical}+{e.Length} flags=0x{e.Flags:x}"));

    [DllImport("libc", EntryPoint = "ioctl", SetLastError = true)]
    private static extern int Ioctl(int fd, ulong request, byte* argument);
}
