using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy.Benchmarks;

/// <summary>
/// One Copy call over a bin/-shaped set of files (mostly small assemblies, some large), through MSBuild's
/// built-in Copy task and through CloneCopy's, same files, same filesystem, interleaved; plus a plain
/// File.Copy loop and the floor (<see cref="MinimalCloneLoop"/>: the system calls a clone needs and nothing else)
/// for reference. Reports time, each task's distance from the floor, and managed memory allocated per call.
/// </summary>
public static class PerTaskBenchmark
{
    public static void Run(IReadOnlyDictionary<string, string> filesystems, int fileCount, int rounds, TextWriter output)
    {
        output.WriteLine("| filesystem | files | MiB | MSBuild Copy | CloneCopy | CloneCopy ÷ MSBuild | File.Copy loop | floor (minimal clone loop) | MSBuild ÷ floor | CloneCopy ÷ floor | allocated: MSBuild / CloneCopy |");
        output.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var (name, root) in filesystems)
        {
            string sourceDirectory = Path.Combine(root, "pertask-src");
            ITaskItem[] sources = CreateSources(sourceDirectory, fileCount);
            long bytes = sources.Sum(s => new FileInfo(s.ItemSpec).Length);
            var allocated = new Dictionary<string, List<long>> { ["msbuild"] = [], ["clonecopy"] = [] };
            string Destination(string who, int round) => Path.Combine(root, $"pertask-{who}-{round}");

            var results = Sampler.Compare(1, rounds,
            [
                ("msbuild", _ => Prime(), r => Measure(allocated["msbuild"], () => RunTask(new Microsoft.Build.Tasks.Copy(), sources, Destination("msbuild", r))), r => Directory.Delete(Destination("msbuild", r), true)),
                ("clonecopy", _ => Prime(), r => Measure(allocated["clonecopy"], () => RunTask(new CloneCopy.Copy(), sources, Destination("clonecopy", r))), r => Directory.Delete(Destination("clonecopy", r), true)),
                ("file.copy", _ => Prime(), r => FileCopyLoop(sources, Destination("filecopy", r)), r => Directory.Delete(Destination("filecopy", r), true)),
                ("floor", _ => Prime(), r => MinimalCloneLoop.Run(sources, Destination("floor", r)), r => Directory.Delete(Destination("floor", r), true)),
            ]);

            Stats msbuild = results["msbuild"], clonecopy = results["clonecopy"], fileCopy = results["file.copy"], floor = results["floor"];
            double allocatedMsbuild = Median(allocated["msbuild"]) / 1048576.0;
            double allocatedClonecopy = Median(allocated["clonecopy"]) / 1048576.0;
            output.WriteLine($"| {name} | {fileCount} | {bytes / 1048576.0:0} | {msbuild} | {clonecopy} | {clonecopy.Median / msbuild.Median:0.00}× | {fileCopy} | {floor} | {msbuild.Median / floor.Median:0.00}× | {clonecopy.Median / floor.Median:0.00}× | {allocatedMsbuild:0.0} MiB / {allocatedClonecopy:0.0} MiB |");
            output.Flush();
            Directory.Delete(sourceDirectory, recursive: true);
        }
    }

    /// <summary>Sizes shaped like a real bin/ folder: mostly small assemblies and PDBs, a few large ones.</summary>
    internal static ITaskItem[] CreateSources(string directory, int count)
    {
        Directory.CreateDirectory(directory);
        var random = new Random(2026);
        var buffer = new byte[4 * 1024 * 1024];
        random.NextBytes(buffer);
        var items = new ITaskItem[count];
        for (int i = 0; i < count; i++)
        {
            double p = random.NextDouble();
            int size = p < 0.70 ? random.Next(512, 64 * 1024) : p < 0.95 ? random.Next(64 * 1024, 512 * 1024) : random.Next(512 * 1024, 4 * 1024 * 1024);
            string path = Path.Combine(directory, $"Assembly{i:0000}.{(i % 3 == 0 ? "pdb" : "dll")}");
            using (var stream = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, 1))
            {
                stream.Write(buffer, i % 1024, size);
            }

            items[i] = new TaskItem(path);
        }

        Sync();
        return items;
    }

    private static void RunTask(ITask task, ITaskItem[] sources, string destination)
    {
        var engine = new NullBuildEngine();
        task.BuildEngine = engine;
        task.GetType().GetProperty("SourceFiles")!.SetValue(task, sources);
        task.GetType().GetProperty("DestinationFolder")!.SetValue(task, new TaskItem(destination));
        if (!task.Execute() || engine.Errors > 0)
        {
            throw new InvalidOperationException($"{task.GetType().FullName} failed");
        }
    }

    private static void FileCopyLoop(ITaskItem[] sources, string destination)
    {
        Directory.CreateDirectory(destination);
        foreach (ITaskItem source in sources)
        {
            File.Copy(source.ItemSpec, Path.Combine(destination, Path.GetFileName(source.ItemSpec)), overwrite: true);
        }
    }

    private static void Measure(List<long> allocations, Action action)
    {
        long before = GC.GetTotalAllocatedBytes(precise: true);
        action();
        allocations.Add(GC.GetTotalAllocatedBytes(precise: true) - before);
    }

    /// <summary>Each run starts from the same state: the previous run's deletions on disk, garbage collected.</summary>
    internal static void Prime()
    {
        Sync();
        GC.Collect();
        GC.WaitForPendingFinalizers();
    }

    private static void Sync() => System.Diagnostics.Process.Start("sync")!.WaitForExit();

    private static double Median(List<long> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length == 0 ? 0 : sorted[sorted.Length / 2];
    }
}
