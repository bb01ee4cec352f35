using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.MultiThreaded;

/// <summary>
/// Under -mt, Copy calls of different projects run at once on threads of one process, each with its own
/// TaskEnvironment. None may see another's project directory or environment, nor the process's.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class ConcurrentProjectsTests
{
    private const int Projects = 8;

    private readonly LoopFilesystems _filesystems;

    public ConcurrentProjectsTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemFact]
    public void Concurrent_calls_resolve_the_same_relative_specs_in_their_own_project_directories()
    {
        string root = _filesystems.NewDirectory(FilesystemKind.Xfs, "concurrent");
        string[] projects = Enumerable.Range(0, Projects).Select(i => Path.Combine(root, $"P{i}")).ToArray();
        for (int i = 0; i < Projects; i++)
        {
            for (int f = 0; f < 20; f++)
            {
                TestFiles.Write(Path.Combine(projects[i], "src", $"f{f}.bin"), 4096 + (i * 100) + f, (i * 100) + f);
            }
        }

        string previous = Environment.CurrentDirectory;
        Environment.CurrentDirectory = root; // the process's directory is no project's
        try
        {
            using var start = new Barrier(Projects);
            var results = new bool[Projects];
            var threads = Enumerable.Range(0, Projects).Select(i => new Thread(() =>
            {
                var task = new CloneCopy.Copy
                {
                    BuildEngine = new TestBuildEngine(),
                    TaskEnvironment = TaskEnvironment.CreateWithProjectDirectoryAndEnvironment(projects[i], new Dictionary<string, string>()),
                    SourceFiles = Enumerable.Range(0, 20).Select(f => (ITaskItem)new TaskItem($"src/f{f}.bin")).ToArray(),
                    DestinationFolder = new TaskItem("bin/out"),
                };
                start.SignalAndWait();
                results[i] = task.Execute();
            })).ToList();
            threads.ForEach(t => t.Start());
            threads.ForEach(t => t.Join());

            Assert.All(results, Assert.True);
        }
        finally
        {
            Environment.CurrentDirectory = previous;
        }

        Assert.False(Directory.Exists(Path.Combine(root, "bin")), "a call wrote relative to the process's directory");
        for (int i = 0; i < Projects; i++)
        {
            for (int f = 0; f < 20; f++)
            {
                Assert.Equal(File.ReadAllBytes(Path.Combine(projects[i], "src", $"f{f}.bin")), File.ReadAllBytes(Path.Combine(projects[i], "bin", "out", $"f{f}.bin")));
            }
        }
    }

    [FilesystemFact]
    public void An_escape_hatch_in_one_projects_environment_does_not_reach_another_running_at_the_same_time()
    {
        // MSBuildUseSymboliclinksIfPossible makes symbolic links the default: only the projects whose
        // TaskEnvironment sets it may link; the others copy. The process's environment has it in neither case.
        string root = _filesystems.NewDirectory(FilesystemKind.Ext4, "concurrent-env");
        string[] projects = Enumerable.Range(0, Projects).Select(i => Path.Combine(root, $"P{i}")).ToArray();
        foreach (string project in projects)
        {
            TestFiles.Write(Path.Combine(project, "a.txt"), 100, 1);
        }

        Assert.Null(Environment.GetEnvironmentVariable("MSBuildUseSymboliclinksIfPossible"));
        using var start = new Barrier(Projects);
        var results = new bool[Projects];
        var threads = Enumerable.Range(0, Projects).Select(i => new Thread(() =>
        {
            var environment = i % 2 == 0 ? new Dictionary<string, string> { ["MSBuildUseSymboliclinksIfPossible"] = "true" } : new Dictionary<string, string>();
            var task = new CloneCopy.Copy
            {
                BuildEngine = new TestBuildEngine(),
                TaskEnvironment = TaskEnvironment.CreateWithProjectDirectoryAndEnvironment(projects[i], environment),
                SourceFiles = [new TaskItem("a.txt")],
                DestinationFolder = new TaskItem("out"),
            };
            start.SignalAndWait();
            results[i] = task.Execute();
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());

        Assert.All(results, Assert.True);
        for (int i = 0; i < Projects; i++)
        {
            string? target = new FileInfo(Path.Combine(projects[i], "out", "a.txt")).LinkTarget;
            Assert.True((i % 2 == 0) == (target is not null), $"P{i}: link target {target ?? "(none)"}");
        }
    }
}
