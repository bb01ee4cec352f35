using System.Collections;
using Microsoft.Build.Framework;

namespace CloneCopy.Benchmarks;

/// <summary>A build engine that drops every event, so both tasks pay only for creating their messages.</summary>
public sealed class NullBuildEngine : IBuildEngine
{
    public int Errors { get; private set; }

    public bool ContinueOnError => false;

    public int LineNumberOfTaskNode => 0;

    public int ColumnNumberOfTaskNode => 0;

    public string ProjectFileOfTaskNode => "bench.proj";

    public bool BuildProjectFile(string projectFileName, string[] targetNames, IDictionary globalProperties, IDictionary targetOutputs) => false;

    public void LogCustomEvent(CustomBuildEventArgs e)
    {
    }

    public void LogErrorEvent(BuildErrorEventArgs e) => Errors++;

    public void LogMessageEvent(BuildMessageEventArgs e)
    {
    }

    public void LogWarningEvent(BuildWarningEventArgs e)
    {
    }
}
