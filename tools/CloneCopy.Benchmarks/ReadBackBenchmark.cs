using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Linux;

namespace CloneCopy.Benchmarks;

/// <summary>
/// What the clone read-back costs: one file cloned by CloneCopy's Linux transfer on a reflink filesystem,
/// as the first clone of a build (read back: the first and last MiB), as any later clone (not read), and with
/// CloneCopyVerifyClones (read back whole), beside File.Copy of the same file for scale. In one process, interleaved.
/// "in memory": the source's pages are cached, as for a file the build just wrote. "from disk": every cache dropped
/// before each operation (root only), as for a package-cache assembly on a CI agent that just started; the clone's own
/// pages are never cached (a clone shares blocks, not pages), so its read-back reads the disk in both.
/// </summary>
public static class ReadBackBenchmark
{
    private static readonly int[] Sizes = [16 * 1024, 1024 * 1024, 4 * 1024 * 1024, 64 * 1024 * 1024];

    public static void Run(IReadOnlyDictionary<string, string> filesystems, int rounds, TextWriter output)
    {
        output.WriteLine("| filesystem | source | size | later clone (not read) | first clone of a build (read back) | every clone read (VerifyClones) | File.Copy | read-back's cost | VerifyClones ÷ later | File.Copy ÷ first |");
        output.WriteLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        bool canDropCaches = Environment.UserName == "root" && File.Exists(DropCaches);
        foreach (var (name, root) in filesystems)
        {
            foreach (bool cold in canDropCaches ? new[] { false, true } : new[] { false })
            {
                foreach (int size in Sizes)
                {
                    string directory = Path.Combine(root, $"readback-{size}");
                    Directory.CreateDirectory(directory);
                    string source = Path.Combine(directory, "source.bin");
                    byte[] content = new byte[size];
                    new Random(size).NextBytes(content);
                    File.WriteAllBytes(source, content);

                    // Three transfers, so that one's verdicts never stand in for another's: "first" starts a new build
                    // before every clone (its verifier forgets, as on a node's next build), "later" stays in one build
                    // whose read-back was done in the warm-up, "every" reads every clone back.
                    var first = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>());
                    var later = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>());
                    later.UseVerdictsOf(new BuildVerdicts());
                    var every = new LinuxFileTransfer(new CloneCapabilityCache<VolumePair>());
                    every.UseVerdictsOf(new BuildVerdicts { VerifyClones = true });

                    Action<int> settle = cold ? _ => DropEveryCache() : _ => { };
                    string Destination(string who, int round) => Path.Combine(directory, $"{who}-{round}.bin");
                    var results = Sampler.Compare(2, rounds,
                    [
                        ("later", settle, r => Expect(later.Transfer(source, Destination("later", r), CancellationToken.None)), r => File.Delete(Destination("later", r))),
                        ("first", r => { settle(r); first.UseVerdictsOf(new BuildVerdicts()); }, r => Expect(first.Transfer(source, Destination("first", r), CancellationToken.None)), r => File.Delete(Destination("first", r))),
                        ("every", settle, r => Expect(every.Transfer(source, Destination("every", r), CancellationToken.None)), r => File.Delete(Destination("every", r))),
                        ("file.copy", settle, r => File.Copy(source, Destination("fc", r), overwrite: true), r => File.Delete(Destination("fc", r))),
                    ]);

                    Stats l = results["later"], f = results["first"], e = results["every"], c = results["file.copy"];
                    output.WriteLine($"| {name} | {(cold ? "from disk" : "in memory")} | {PerFileBenchmark.SizeLabel(size)} | {l} | {f} | {e} | {c} | {Stats.Format(f.Median - l.Median)} | {e.Median / l.Median:0.0}× | {c.Median / f.Median:0.0}× |");
                    output.Flush();
                    Directory.Delete(directory, recursive: true);
                }
            }
        }
    }

    private const string DropCaches = "/proc/sys/vm/drop_caches";

    private static void DropEveryCache()
    {
        LibSync();
        File.WriteAllText(DropCaches, "3");
    }

    /// <summary>A benchmark of clones that did not clone measures nothing: it stops.</summary>
    private static void Expect(TransferResult result)
    {
        if (result.Method != TransferMethod.Cloned)
        {
            throw new InvalidOperationException($"not cloned ({result.Method}, {result.Reason}): run the read-back benchmark on a filesystem that clones");
        }
    }

    [System.Runtime.InteropServices.DllImport("libc", EntryPoint = "sync")]
    private static extern void LibSync();
}
