using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy.Tests.Faults;

/// <summary>
/// The fault lane's two modes of the test program (scripts/fault-lane.sh):
/// <c>--fault-copy TASK RETRIES FOLDER SOURCE...</c> runs one Copy call (MSBuild's own, "msbuild", or CloneCopy's) in a
/// process of its own, so that strace's injection counts the calls of that task alone, and prints its result and events;
/// <c>--fault-check ROOT</c> then checks every case under ROOT (one folder each, as the script left them) against the
/// invariants, repairs each with a clean rebuild (SkipUnchangedFiles), and prints one line per case and the lane's line.
/// </summary>
internal static class FaultLaneDriver
{
    public static int Copy(string taskName, int retries, string folder, string[] sources)
    {
        var engine = new TestBuildEngine();
        bool succeeded = Run(taskName, engine, folder, sources, retries, skipUnchanged: false);
        Console.WriteLine($"result {(succeeded ? "passed" : "failed")}");
        foreach (BuildEventArgs e in engine.Events)
        {
            switch (e)
            {
                case BuildErrorEventArgs error:
                    Console.WriteLine($"error {error.Code ?? "-"} {OneLine(error.Message)}");
                    break;
                case BuildWarningEventArgs warning:
                    Console.WriteLine($"warning {warning.Code ?? "-"} {OneLine(warning.Message)}");
                    break;
            }
        }

        return 0;
    }

    private static bool Run(string taskName, TestBuildEngine engine, string folder, string[] sources, int retries, bool skipUnchanged)
    {
        ITask task = taskName == "msbuild" ? new Microsoft.Build.Tasks.Copy() : new CloneCopy.Copy();
        task.BuildEngine = engine;
        var type = task.GetType();
        type.GetProperty("SourceFiles")!.SetValue(task, sources.Select(s => (ITaskItem)new TaskItem(s)).ToArray());
        type.GetProperty("DestinationFolder")!.SetValue(task, new TaskItem(folder));
        type.GetProperty("Retries")!.SetValue(task, retries);
        type.GetProperty("RetryDelayMilliseconds")!.SetValue(task, 10);
        type.GetProperty("SkipUnchangedFiles")!.SetValue(task, skipUnchanged);
        return task.Execute();
    }

    private static string OneLine(string? text) => (text ?? string.Empty).Replace('\n', ' ').Replace('\r', ' ');

    /// <summary>Checks every case folder under <paramref name="root"/>; returns 1 when an invariant broke.</summary>
    public static int Check(string root)
    {
        var pristine = Directory.GetFiles(Path.Combine(root, "pristine")).ToDictionary(f => Path.GetFileName(f), Look, StringComparer.Ordinal);
        var differences = new Dictionary<string, string>(StringComparer.Ordinal);
        int passed = 0, failed = 0, skipped = 0;
        foreach (string caseFolder in Directory.GetDirectories(root).Where(d => Path.GetFileName(d).StartsWith("case-", StringComparison.Ordinal)).Order(StringComparer.Ordinal))
        {
            string name = File.ReadAllText(Path.Combine(caseFolder, "case.txt")).Trim();
            var broken = new List<string>();
            var runs = new Dictionary<string, TaskRun>(StringComparer.Ordinal);
            foreach (string task in new[] { "msbuild", "clonecopy" })
            {
                if (!File.Exists(Path.Combine(caseFolder, task + ".out")))
                {
                    continue;
                }

                TaskRun run = TaskRun.Read(caseFolder, task);
                runs[task] = run;
                CheckOne(run, caseFolder, task, pristine, name, broken);
            }

            if (runs.Count < 2)
            {
                skipped++;
                Console.WriteLine($"SKIP {name}: a task's run is missing");
                continue;
            }

            TaskRun builtIn = runs["msbuild"], cloneCopy = runs["clonecopy"];
            string comparison = "";

            // Whether or not MSBuild's Copy met the fault: a call only CloneCopy makes must not fail what MSBuild's Copy passes.
            if (builtIn.Passed && !cloneCopy.Passed)
            {
                broken.Add("CloneCopy failed where MSBuild's Copy passed");
            }

            if (builtIn.MetFault && cloneCopy.MetFault)
            {
                if (builtIn.Passed != cloneCopy.Passed || builtIn.Codes != cloneCopy.Codes)
                {
                    comparison = $" differs: MSBuild {builtIn.Summary}, CloneCopy {cloneCopy.Summary}";
                    differences[name] = comparison;
                }
                else if (!builtIn.Texts.SequenceEqual(cloneCopy.Texts))
                {
                    // Same codes, other words: MSB3021 and MSB3026 quote the exception, and tools match on it.
                    comparison = $" words differ: MSBuild \"{builtIn.Texts.FirstOrDefault()}\", CloneCopy \"{cloneCopy.Texts.FirstOrDefault()}\"";
                    differences[name] = comparison;
                }
            }
            else if (cloneCopy.MetFault)
            {
                comparison = " (only CloneCopy made this call)";
            }
            else if (builtIn.MetFault)
            {
                comparison = " (only MSBuild's Copy made this call)";
            }

            if (broken.Count == 0)
            {
                passed++;
                Console.WriteLine($"ok   {name}: MSBuild {builtIn.Summary}; CloneCopy {cloneCopy.Summary}{comparison}");
            }
            else
            {
                failed++;
                Console.WriteLine($"FAIL {name}: {string.Join("; ", broken)}; MSBuild {builtIn.Summary}; CloneCopy {cloneCopy.Summary}");
            }
        }

        Console.WriteLine($"differences where both met the fault: {differences.Count}");
        Console.WriteLine($"faults: {passed} passed, {failed} failed, {skipped} skipped");
        return failed == 0 ? 0 : 1;
    }

    /// <summary>The invariants for one task's run in one case; then the clean rebuild that must repair it.</summary>
    private static void CheckOne(TaskRun run, string caseFolder, string task, Dictionary<string, Seen> pristine, string name, List<string> broken)
    {
        string sources = Path.Combine(caseFolder, "src-" + task);
        string output = Path.Combine(caseFolder, "out-" + task);
        string who = task == "msbuild" ? "MSBuild's Copy" : "CloneCopy";
        foreach (var (file, original) in pristine)
        {
            Seen now = Look(Path.Combine(sources, file));
            if (now.Hash != original.Hash || now.Length != original.Length)
            {
                broken.Add($"{who} changed the source {file}");
            }
        }

        var expected = pristine.Keys.ToHashSet(StringComparer.Ordinal);
        foreach (string folder in new[] { sources, output })
        {
            foreach (string stray in Directory.Exists(folder) ? Directory.GetFileSystemEntries(folder).Select(f => Path.GetFileName(f)).Where(f => !expected.Contains(f)) : [])
            {
                broken.Add($"{who} left a stray {stray} in {Path.GetFileName(folder)}");
            }
        }

        if (!run.Passed && (run.Errors.Count == 0 || run.Errors.Any(code => !code.StartsWith("MSB", StringComparison.Ordinal))))
        {
            broken.Add($"{who} failed without an MSB code on every error ({string.Join(",", run.Errors)})");
        }

        if (run.Passed)
        {
            foreach (string file in pristine.Keys)
            {
                string destination = Path.Combine(output, file);
                Seen copy = File.Exists(destination) ? Look(destination) : default;
                Seen source = Look(Path.Combine(sources, file));
                if (copy.Hash == source.Hash)
                {
                    continue;
                }

                // A read() that ends before the size (an injected 0) is the end of the file for File.Copy: MSBuild's Copy
                // passes with what was read, and so does CloneCopy (docs/fidelity.md). What must hold then: the copy is the
                // source's beginning, and CloneCopy's does not carry the source's time.
                bool shortRead = name.Contains("read:retval=0", StringComparison.Ordinal) && copy.Length < source.Length && IsPrefix(destination, Path.Combine(sources, file));
                if (!shortRead)
                {
                    broken.Add($"{who} passed and left {file} not byte-identical");
                }
                else if (task == "clonecopy" && copy.Time == source.Time)
                {
                    broken.Add($"CloneCopy left the short copy of {file} with the source's time");
                }
            }
        }

        var engine = new TestBuildEngine();
        if (!Run(task, engine, output, pristine.Keys.Select(f => Path.Combine(sources, f)).ToArray(), retries: 0, skipUnchanged: true))
        {
            broken.Add($"{who}'s clean rebuild failed: {engine.Describe()}");
            return;
        }

        foreach (string file in pristine.Keys)
        {
            Seen source = Look(Path.Combine(sources, file));
            string destination = Path.Combine(output, file);
            Seen copy = File.Exists(destination) ? Look(destination) : default;
            if (copy != source)
            {
                broken.Add($"{who}'s clean rebuild left {file} unrepaired");
            }
        }
    }

    private static bool IsPrefix(string shorter, string longer)
    {
        byte[] a = File.ReadAllBytes(shorter), b = File.ReadAllBytes(longer);
        return a.AsSpan().SequenceEqual(b.AsSpan(0, a.Length));
    }

    private static Seen Look(string path) =>
        File.Exists(path) ? new Seen(new FileInfo(path).Length, File.GetLastWriteTimeUtc(path).Ticks, Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(path)))) : default;

    private readonly record struct Seen(long Length, long Time, string? Hash);

    /// <summary>One task's run in one case: what it printed, and whether strace's trace shows the fault injected.</summary>
    private sealed record TaskRun(bool Passed, List<string> Errors, List<string> Warnings, bool MetFault, List<string> Texts)
    {
        public string Codes => string.Join(",", Errors) + "|" + string.Join(",", Warnings);

        public string Summary => $"{(Passed ? "passed" : "failed")}{(Errors.Count + Warnings.Count > 0 ? " " + string.Join(",", Warnings.Concat(Errors)) : "")}{(MetFault ? "" : " (fault not met)")}";

        public static TaskRun Read(string caseFolder, string task)
        {
            string[] lines = File.ReadAllLines(Path.Combine(caseFolder, task + ".out"));
            string trace = Path.Combine(caseFolder, task + ".trace");
            bool met = File.Exists(trace) && File.ReadLines(trace).Any(l => l.Contains("(INJECTED", StringComparison.Ordinal));
            return new TaskRun(
                lines.Contains("result passed"),
                lines.Where(l => l.StartsWith("error ", StringComparison.Ordinal)).Select(l => l.Split(' ')[1]).ToList(),
                lines.Where(l => l.StartsWith("warning ", StringComparison.Ordinal)).Select(l => l.Split(' ')[1]).ToList(),
                met,
                lines.Where(l => l.StartsWith("error ", StringComparison.Ordinal) || l.StartsWith("warning ", StringComparison.Ordinal))
                    .Select(l => l.Replace("-" + task + "/", "-TASK/", StringComparison.Ordinal)).ToList());
        }
    }
}
