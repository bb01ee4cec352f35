using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Linux;

namespace CloneCopy.Benchmarks;

/// <summary>
/// One file at a time: CloneCopy's transfer engine vs File.Copy vs a buffered copy, same source, same
/// filesystem, interleaved. "on disk": the source was written and fsync'ed once. "just written": the source
/// is rewritten (not synced) before every operation, so a clone must first flush its dirty pages.
/// </summary>
public static class PerFileBenchmark
{
    private static readonly int[] Sizes = [0, 1, 1024, 16 * 1024, 256 * 1024, 1024 * 1024, 16 * 1024 * 1024];

    public static void Run(IReadOnlyDictionary<string, string> filesystems, TextWriter output)
    {
        output.WriteLine("| filesystem | source | size | CloneCopy engine | File.Copy | buffered copy | File.Copy ÷ CloneCopy | buffered ÷ CloneCopy |");
        output.WriteLine("|---|---|---:|---:|---:|---:|---:|---:|");
        foreach (var (name, root) in filesystems)
        {
            var transfer = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>());
            foreach (bool dirty in new[] { false, true })
            {
                foreach (int size in Sizes)
                {
                    string directory = Path.Combine(root, $"perfile-{size}-{(dirty ? "dirty" : "disk")}");
                    Directory.CreateDirectory(directory);
                    string source = Path.Combine(directory, "source.bin");
                    byte[] content = new byte[size];
                    new Random(size).NextBytes(content);
                    Write(source, content, sync: true);

                    int rounds = size >= 16 * 1024 * 1024 ? 15 : size >= 1024 * 1024 ? 40 : 150;
                    // Every operation starts with no dirty pages but (for "just written") the source's own.
                    Action<int> prepare = dirty ? _ => { Sync(); Write(source, content, sync: false); } : _ => Sync();
                    string Destination(string who, int round) => Path.Combine(directory, $"{who}-{round}.bin");
                    var results = Sampler.Compare(3, rounds,
                    [
                        ("clonecopy", prepare, r => transfer.Transfer(source, Destination("cc", r), CancellationToken.None), r => File.Delete(Destination("cc", r))),
                        ("file.copy", prepare, r => File.Copy(source, Destination("fc", r), overwrite: true), r => File.Delete(Destination("fc", r))),
                        ("buffered", prepare, r => BufferedCopy.Copy(source, Destination("bc", r)), r => File.Delete(Destination("bc", r))),
                    ]);

                    Stats cc = results["clonecopy"], fc = results["file.copy"], bc = results["buffered"];
                    output.WriteLine($"| {name} | {(dirty ? "just written" : "on disk")} | {SizeLabel(size)} | {cc} | {fc} | {bc} | {fc.Median / cc.Median:0.00}× | {bc.Median / cc.Median:0.00}× |");
                    output.Flush();
                    Directory.Delete(directory, recursive: true);
                }
            }
        }
    }

    public static string SizeLabel(long size) => size switch
    {
        >= 1024 * 1024 => $"{size / (1024 * 1024)} MiB",
        >= 1024 => $"{size / 1024} KiB",
        _ => $"{size} B",
    };

    private static void Sync() => LibSync();

    [System.Runtime.InteropServices.DllImport("libc", EntryPoint = "sync")]
    private static extern void LibSync();

    private static void Write(string path, byte[] content, bool sync)
    {
        using var stream = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.Read, 1);
        stream.Write(content);
        if (sync)
        {
            stream.Flush(flushToDisk: true);
        }
    }
}
