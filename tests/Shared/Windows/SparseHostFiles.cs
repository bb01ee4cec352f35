using System;
using System.IO;
using CloneCopy.Platform.Windows;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The host's side of the tests' files of gigabytes (a 5 GiB source, the simulator's destination of its clone), which
/// are only ever given a length: sparse on every host. Linux and macOS leave a length set past the written data as a hole
/// by themselves; Windows (NTFS, ReFS) gives a file that is not sparse real clusters for its whole length
/// (MS-FSA 2.1.5.15.4, FileEndOfFileInformation), so natively each such file would take its gigabytes of the CI job's
/// volume. Marked sparse first (FSCTL_SET_SPARSE), the extension is a hole there too.
/// </summary>
internal static class SparseHostFiles
{
    /// <summary>From this length on, the simulator marks the host file sparse before it sets the length.</summary>
    public const long LargeLength = 1L << 30;

    /// <summary>A new file of LENGTH bytes that holds no data and allocates none.</summary>
    public static void Create(string path, long length)
    {
        using var stream = new FileStream(path, FileMode.CreateNew);
        MarkSparse(stream.SafeFileHandle, path);
        stream.SetLength(length);
    }

    /// <summary>Marks the host file sparse on Windows (a no-op elsewhere, where holes need no mark).</summary>
    public static void MarkSparse(SafeFileHandle file, string path)
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        int error = WindowsSystemCalls.Instance.SetSparse(file, true);
        if (error != 0)
        {
            throw new IOException($"FSCTL_SET_SPARSE on the test's own file {path} failed with Win32 error {error}: it would allocate its whole length.");
        }
    }
}
