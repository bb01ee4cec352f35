using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy.Benchmarks;

/// <summary>
/// What CloneCopyAtomicReplace costs: a rebuild's Copy that replaces every destination (each source newer than its
/// copy, SkipUnchangedFiles as MSBuild's targets pass it), one call over the bin/-shaped set of
/// <see cref="PerTaskBenchmark"/>, through MSBuild's Copy, CloneCopy's, and CloneCopy's with the switch; interleaved,
/// each into its own folder filled beforehand. The sources' times are moved on before each run (not timed).
/// </summary>
public static class ReplaceBenchmark
{
    public static void Run(IReadOnlyDictionary<string, string> filesystems, int fileCount, int rounds, TextWriter output)
    {
        output.WriteLine("| filesystem | files | MiB | MSBuild Copy | CloneCopy | CloneCopy, atomic replace | atomic ÷ CloneCopy | atomic ÷ MSBuild |");
        output.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var (name, root) in filesystems)
        {
            string sourceDirectory = Path.Combine(root, "replace-src");
            ITaskItem[] sources = PerTaskBenchmark.CreateSources(sourceDirectory, fileCount);
            long bytes = sources.Sum(s => new FileInfo(s.ItemSpec).Length);
            var time = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);
            var tasks = new (string Name, Func<ITask> Make)[]
            {
                ("msbuild", () => new Microsoft.Build.Tasks.Copy()),
                ("clonecopy", () => new CloneCopy.Copy()),
                ("atomic", () => new CloneCopy.Copy { AtomicReplaceSetting = true }),
            };
            foreach (var (who, make) in tasks)
            {
                RunTask(make(), sources, Path.Combine(root, $"replace-{who}"));
            }

            void Newer(int round)
            {
                time = time.AddSeconds(1);
                foreach (ITaskItem source in sources)
                {
                    File.SetLastWriteTimeUtc(source.ItemSpec, time);
                }

                PerTaskBenchmark.Prime();
            }

            var results = Sampler.Compare(1, rounds, tasks.Select(t => (t.Name, (Action<int>)Newer, (Action<int>)(_ => RunTask(t.Make(), sources, Path.Combine(root, $"replace-{t.Name}"))), (Action<int>)(_ => { }))).ToList());
            Stats msbuild = results["msbuild"], clonecopy = results["clonecopy"], atomic = results["atomic"];
            output.WriteLine($"| {name} | {fileCount} | {bytes / 1048576.0:0} | {msbuild} | {clonecopy} | {atomic} | {atomic.Median / clonecopy.Median:0.00}× | {atomic.Median / msbuild.Median:0.00}× |");
            output.Flush();
            foreach (var (who, _) in tasks)
            {
                Directory.Delete(Path.Combine(root, $"replace-{who}"), recursive: true);
            }

            Directory.Delete(sourceDirectory, recursive: true);
        }
    }

    /// <summary>One Copy with SkipUnchangedFiles (as the SDK's targets call it); every destination must be written.</summary>
    private static void RunTask(ITask task, ITaskItem[] sources, string destination)
    {
        var engine = new NullBuildEngine();
        task.BuildEngine = engine;
        task.GetType().GetProperty("SourceFiles")!.SetValue(task, sources);
        task.GetType().GetProperty("DestinationFolder")!.SetValue(task, new TaskItem(destination));
        task.GetType().GetProperty("SkipUnchangedFiles")!.SetValue(task, true);
        if (!task.Execute() || engine.Errors > 0)
        {
            throw new InvalidOperationException($"{task.GetType().FullName} failed");
        }

        if (!(bool)task.GetType().GetProperty("WroteAtLeastOneFile")!.GetValue(task)!)
        {
            throw new InvalidOperationException($"{task.GetType().FullName} replaced nothing");
        }
    }
}
