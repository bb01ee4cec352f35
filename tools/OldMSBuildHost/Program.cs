using System;
using System.Collections;
using System.IO;
using System.Reflection;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

// Usage: OldMSBuildHost <task assembly> <source file> <destination folder>
// Prints what it saw (its Framework's version, the version CloneCopy reads, the task's events); exit 0 when Copy ran and succeeded, 2 when the task type would not load, 1 otherwise.
string taskAssembly = args[0];
Type? api = typeof(ITask).Assembly.GetType("Microsoft.Build.Framework.IMultiThreadableTask");
Console.WriteLine($"Microsoft.Build.Framework {typeof(ITask).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion}");
Console.WriteLine($"IMultiThreadableTask: {(api is null ? "absent" : "present")}");

ITask task;
try
{
    Type type = Assembly.LoadFrom(taskAssembly).GetType("CloneCopy.Copy", throwOnError: true)!;
    task = (ITask)Activator.CreateInstance(type)!;
}
catch (Exception e) when (e is TypeLoadException or ReflectionTypeLoadException or FileNotFoundException)
{
    Console.WriteLine($"load failed: {e.GetType().Name}: {e.Message}");
    return 2;
}

// What CloneCopy's rules take the running MSBuild to be (its RunningMSBuild, read from the Framework loaded here).
object? running = task.GetType().Assembly.GetType("CloneCopy.RunningMSBuild")?.GetProperty("Current", BindingFlags.Public | BindingFlags.Static)?.GetValue(null);
Console.WriteLine($"CloneCopy reads MSBuild {running?.ToString() ?? "(no RunningMSBuild)"}");

var engine = new ConsoleEngine();
task.BuildEngine = engine;
Type copy = task.GetType();
copy.GetProperty("SourceFiles")!.SetValue(task, new ITaskItem[] { new TaskItem(args[1]) });
copy.GetProperty("DestinationFolder")!.SetValue(task, new TaskItem(args[2]));
bool succeeded = task.Execute();
Console.WriteLine($"Execute: {succeeded}, WroteAtLeastOneFile: {copy.GetProperty("WroteAtLeastOneFile")!.GetValue(task)}");
return succeeded ? 0 : 1;

/// <summary>Prints every event; enough of an engine for Copy outside a build.</summary>
internal sealed class ConsoleEngine : IBuildEngine
{
    public bool ContinueOnError => false;

    public int LineNumberOfTaskNode => 0;

    public int ColumnNumberOfTaskNode => 0;

    public string ProjectFileOfTaskNode => "host.proj";

    public bool BuildProjectFile(string projectFileName, string[] targetNames, IDictionary globalProperties, IDictionary targetOutputs) => false;

    public void LogCustomEvent(CustomBuildEventArgs e) => Console.WriteLine($"custom: {e.Message}");

    public void LogErrorEvent(BuildErrorEventArgs e) => Console.WriteLine($"error {e.Code}: {e.Message}");

    public void LogMessageEvent(BuildMessageEventArgs e) => Console.WriteLine($"message: {e.Message}");

    public void LogWarningEvent(BuildWarningEventArgs e) => Console.WriteLine($"warning {e.Code}: {e.Message}");
}
