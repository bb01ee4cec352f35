using System;
using System.IO;
using System.Security.Cryptography;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>What a copy must carry over, read with stat(1) so timestamps keep their nanoseconds.</summary>
public readonly record struct FileMetadata(string Mode, long Size, string LastWriteTime, string ContentHash)
{
    public static FileMetadata Read(string path)
    {
        string[] fields = ProcessRunner.RunChecked("stat", $"-c \"%a|%s|%y\" \"{path}\"").Trim().Split('|');
        string hash = Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(path)));
        return new FileMetadata(fields[0], long.Parse(fields[1]), fields[2], hash);
    }
}

/// <summary>Writes test files with chosen content, mode and timestamp.</summary>
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

    public static string Write(string path, int length, int seed = 1, UnixFileMode? mode = null, DateTime? lastWrite = null)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllBytes(path, Content(length, seed));
        if (mode is not null)
        {
            File.SetUnixFileMode(path, mode.Value);
        }

        File.SetLastWriteTimeUtc(path, lastWrite ?? FixedTime.AddSeconds(seed));
        return path;
    }

    /// <summary>Sets a timestamp with nanoseconds, which .NET's 100 ns DateTime cannot express.</summary>
    public static void SetNanosecondTimestamp(string path, string timestamp) =>
        ProcessRunner.RunChecked("touch", $"-m -d \"{timestamp}\" \"{path}\"");

    /// <summary>Pushes the file's dirty pages to disk, as a file that has sat in a cache for a while.</summary>
    public static void Sync(string path) => ProcessRunner.RunChecked("sync", $"\"{path}\"");
}
