using System;

namespace CloneCopy;

/// <summary>
/// Where one Copy call resolves relative item specs and reads MSBuild's escape hatches. In a build process of
/// its own per node (no -mt), the process's current directory is the project's and its environment is the
/// build's. Under MSBuild's multithreaded mode, projects share one process, so the project's directory and
/// environment come from the TaskEnvironment MSBuild hands the task (see MultiThreaded/).
/// </summary>
internal class CopyEnvironment
{
    /// <summary>The process: its current directory and its environment variables.</summary>
    public static readonly CopyEnvironment Process = new();

    /// <summary>The full, normalised path of an item spec; an empty spec fails as MSBuild's Copy fails (MSB3021's text).</summary>
    public string FullPathOf(string spec)
    {
        FullPath.ThrowIfEmpty(spec);
        return Resolve(spec);
    }

    /// <summary>An environment variable as the task should see it, or null.</summary>
    public virtual string? Variable(string name) => Environment.GetEnvironmentVariable(name);

    protected virtual string Resolve(string spec) => System.IO.Path.GetFullPath(spec);
}
