using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy.Tests.Task;

/// <summary>Runs CloneCopy's Copy with absolute paths and a recording engine.</summary>
public static class TaskRunner
{
    public static (CloneCopy.Copy Task, bool Succeeded, TestBuildEngine Engine) CopyToFolder(string[] sources, string destinationFolder, bool skipUnchanged = false)
    {
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = sources.Select(s => (ITaskItem)new TaskItem(s)).ToArray(),
            DestinationFolder = new TaskItem(destinationFolder),
            SkipUnchangedFiles = skipUnchanged,
            RetryDelayMilliseconds = 10,
        };
        bool succeeded = task.Execute();
        return (task, succeeded, engine);
    }

    /// <summary>The summary line CloneCopy logs at high importance (a test engine has no project builds to summarise).</summary>
    public static string Summary(TestBuildEngine engine) =>
        engine.Messages.Single(m => System.Text.RegularExpressions.Regex.IsMatch(m.Message!, @"^CloneCopy: \d+ files? cloned") && m.Importance == MessageImportance.High).Message!;
}
