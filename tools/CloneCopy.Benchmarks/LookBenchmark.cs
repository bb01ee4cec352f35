using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy.Benchmarks;

/// <summary>
/// What a build where nothing was killed pays for the look at the records of killed atomic replaces (taken once per
/// build and node, by its first Copy: <see cref="AbandonedReplacements"/>), side by side with the cheapest Copy a build
/// makes, one up-to-date file, through MSBuild's Copy and CloneCopy's (whose own look this process took in the warm-up):
/// the look with no folder of records (no process of this user ever replaced a file), with an empty one (every such
/// process ended normally), and with four records of running processes (a server and nodes that replaced files), held
/// open here as their processes hold them. Interleaved, first round dropped.
/// </summary>
public static class LookBenchmark
{
    private const int LiveRecords = 4;

    public static void Run(string directory, int rounds, TextWriter output)
    {
        string root = Directory.CreateDirectory(Path.Combine(directory, "look-bench")).FullName;
        string source = Path.Combine(root, "Library.dll");
        File.WriteAllBytes(source, new byte[20_000]);
        string destination = Path.Combine(root, "out");
        string none = Path.Combine(root, "records-none");
        string empty = Directory.CreateDirectory(Path.Combine(root, "records-empty")).FullName;
        string live = Directory.CreateDirectory(Path.Combine(root, "records-live")).FullName;
        var held = Enumerable.Range(1, LiveRecords).Select(i =>
        {
            var record = new FileStream(Path.Combine(live, $"{i}-{i:x8}.journal"), FileMode.Create, FileAccess.Write, FileShare.None, 1);
            byte[] folder = Encoding.UTF8.GetBytes(root + "\0");
            record.Write(folder, 0, folder.Length);
            return record;
        }).ToList();
        try
        {
            CopyOne(new Microsoft.Build.Tasks.Copy(), source, destination);
            var candidates = new (string Name, Action<int> Run)[]
            {
                ("MSBuild's Copy, one up-to-date file", _ => CopyOne(new Microsoft.Build.Tasks.Copy(), source, destination)),
                ("CloneCopy's Copy, one up-to-date file", _ => CopyOne(new CloneCopy.Copy(), source, destination)),
                ("the look, no folder of records", _ => AbandonedReplacements.RemoveAfterDeadProcesses(none)),
                ("the look, an empty folder of records", _ => AbandonedReplacements.RemoveAfterDeadProcesses(empty)),
                ($"the look, {LiveRecords} records of running processes", _ => AbandonedReplacements.RemoveAfterDeadProcesses(live)),
            };
            var results = Sampler.Compare(1, rounds, candidates.Select(c => (c.Name, (Action<int>)(_ => { }), c.Run, (Action<int>)(_ => { }))).ToList());
            Stats msbuild = results[candidates[0].Name];
            output.WriteLine("| what | time | ÷ MSBuild's Copy of one up-to-date file |");
            output.WriteLine("|---|---:|---:|");
            foreach (var (name, _) in candidates)
            {
                output.WriteLine($"| {name} | {results[name]} | {results[name].Median / msbuild.Median:0.00}× |");
            }
        }
        finally
        {
            held.ForEach(record => record.Dispose());
            Directory.Delete(root, recursive: true);
        }
    }

    private static void CopyOne(ITask task, string source, string folder)
    {
        var engine = new NullBuildEngine();
        task.BuildEngine = engine;
        task.GetType().GetProperty("SourceFiles")!.SetValue(task, new ITaskItem[] { new TaskItem(source) });
        task.GetType().GetProperty("DestinationFolder")!.SetValue(task, new TaskItem(folder));
        task.GetType().GetProperty("SkipUnchangedFiles")!.SetValue(task, true);
        if (!task.Execute() || engine.Errors > 0)
        {
            throw new InvalidOperationException($"{task.GetType().FullName} failed");
        }
    }
}
