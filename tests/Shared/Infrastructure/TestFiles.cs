using System;
using System.IO;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>Writes test files with chosen content, mode (on Unix) and timestamp, on any OS.</summary>
public static class TestFiles
{
    private static readonly DateTime FixedTime = new(2021, 3, 4, 5, 6, 7, DateTimeKind.Utc);

    /// <summary>Pseudo-random but repeatable content, so clones and copies can be compared byte for byte.</summary>
    public static byte[] Content(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    /// <param name="mode">Unix permissions; ignored on Windows, which has attributes instead.</param>
    public static string Write(string path, int length, int seed = 1, UnixFileMode? mode = null, DateTime? lastWrite = null)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllBytes(path, Content(length, seed));
        if (mode is not null && !OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, mode.Value);
        }

        File.SetLastWriteTimeUtc(path, lastWrite ?? FixedTime.AddSeconds(seed));
        return path;
    }
}
