using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.BuildCompare;

/// <summary>One extent of a file as FIEMAP reports it: where its bytes are, and whether the filesystem shares them.</summary>
public readonly record struct FileExtent(ulong Logical, ulong Physical, ulong Length, uint Flags)
{
    /// <summary>FIEMAP_EXTENT_LAST: the file's last extent.</summary>
    public const uint LastFlag = 0x1;

    /// <summary>FIEMAP_EXTENT_DATA_INLINE: the data sits in the filesystem's metadata (btrfs small files), not in blocks of its own.</summary>
    public const uint InlineFlag = 0x200;

    /// <summary>FIEMAP_EXTENT_SHARED: the blocks are shared with another file (a clone, a snapshot).</summary>
    public const uint SharedFlag = 0x2000;

    public bool IsShared => (Flags & SharedFlag) != 0;

    public bool IsInline => (Flags & InlineFlag) != 0;
}

/// <summary>
/// Reads a file's extent map with Linux's FS_IOC_FIEMAP ioctl (FIEMAP_FLAG_SYNC, so delayed allocations have
/// blocks first), all of it, in as many calls as it takes. The one FIEMAP reader of the repository: clonecopy-compare
/// measures outputs' disk with it, and the tests (which compile this file in) prove clones with it.
/// </summary>
public static partial class FileExtents
{
    private const uint FsIocFiemap = 0xC020660B;
    private const uint FiemapFlagSync = 0x1;
    private const int HeaderSize = 32;
    private const int ExtentSize = 56;
    private const int ExtentsPerCall = 256;

    /// <summary>The file's extents in logical order; null where the filesystem has no extent maps (tmpfs) or this is not Linux.</summary>
    public static IReadOnlyList<FileExtent>? TryRead(string path, out int error)
    {
        error = 0;
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        using SafeFileHandle handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        var extents = new List<FileExtent>();
        ulong logical = 0;
        while (true)
        {
            int mapped = ReadSome(handle, logical, extents, out error);
            if (mapped < 0)
            {
                return null;
            }

            if (mapped == 0 || (extents[^1].Flags & FileExtent.LastFlag) != 0)
            {
                return extents;
            }

            logical = extents[^1].Logical + extents[^1].Length;
        }
    }

    /// <summary>One FIEMAP call from <paramref name="logical"/>: the number of extents appended, or -1 on failure.</summary>
    private static unsafe int ReadSome(SafeFileHandle handle, ulong logical, List<FileExtent> extents, out int error)
    {
        error = 0;
        const int size = HeaderSize + (ExtentSize * ExtentsPerCall);
        byte* buffer = stackalloc byte[size];
        new Span<byte>(buffer, size).Clear();
        *(ulong*)buffer = logical;                // fm_start
        *(ulong*)(buffer + 8) = ulong.MaxValue;   // fm_length
        *(uint*)(buffer + 16) = FiemapFlagSync;   // fm_flags
        *(uint*)(buffer + 24) = ExtentsPerCall;   // fm_extent_count
        if (Ioctl((int)handle.DangerousGetHandle(), FsIocFiemap, buffer) != 0)
        {
            error = Marshal.GetLastPInvokeError();
            return -1;
        }

        uint mapped = *(uint*)(buffer + 20);
        for (int i = 0; i < mapped; i++)
        {
            byte* extent = buffer + HeaderSize + (i * ExtentSize);
            extents.Add(new FileExtent(*(ulong*)extent, *(ulong*)(extent + 8), *(ulong*)(extent + 16), *(uint*)(extent + 40)));
        }

        return (int)mapped;
    }

    [LibraryImport("libc", EntryPoint = "ioctl", SetLastError = true)]
    private static unsafe partial int Ioctl(int fd, nuint request, byte* argument);
}
