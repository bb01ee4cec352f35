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
        return new FileMetadata(fields[0], long.Parse(fields[1], System.Globalization.CultureInfo.InvariantCulture), fields[2], hash);
    }
}

/// <summary>Linux-only helpers for test files: nanosecond timestamps and writeback.</summary>
public static class LinuxTestFiles
{
    /// <summary>Sets a timestamp with nanoseconds, which .NET's 100 ns DateTime cannot express.</summary>
    public static void SetNanosecondTimestamp(string path, string timestamp) =>
        ProcessRunner.RunChecked("touch", $"-m -d \"{timestamp}\" \"{path}\"");

    /// <summary>Pushes the file's dirty pages to disk, as a file that has sat in a cache for a while.</summary>
    public static void Sync(string path) => ProcessRunner.RunChecked("sync", $"\"{path}\"");
}
