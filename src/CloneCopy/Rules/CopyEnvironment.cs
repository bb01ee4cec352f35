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
    private readonly string? _currentDirectory;

    protected CopyEnvironment()
    {
    }

    private CopyEnvironment(string currentDirectory) => _currentDirectory = currentDirectory;

    /// <summary>The process: its current directory (read whenever a spec is joined) and its environment variables.</summary>
    public static readonly CopyEnvironment Process = new();

    /// <summary>
    /// The process, for one Copy call: its current directory read once (it is the project's for the whole call
    /// outside -mt), not once per spec, which is a system call each time.
    /// </summary>
    public static CopyEnvironment ForProcess() => new(Environment.CurrentDirectory);

    /// <summary>The full, normalised path of an item spec; an empty spec fails as MSBuild's Copy fails (MSB3021's text).</summary>
    public string FullPathOf(string spec)
    {
        FullPath.ThrowIfEmpty(spec);
        return Resolve(spec);
    }

    /// <summary>The spec joined to the project directory, not normalised (MSBuild's AbsolutePath): "a/../b" stays.</summary>
    public string AbsolutePathOf(string spec) => Join(spec);

    /// <summary>
    /// A spec as FileInfo should be given it: relative ones joined to the project directory; an empty one as it
    /// is, so that FileInfo throws what it throws for it in MSBuild's Copy.
    /// </summary>
    public string ForFileInfo(string spec) => spec.Length == 0 ? spec : Join(spec);

    /// <summary>An environment variable as the task should see it, or null.</summary>
#pragma warning disable RS0030 // the one place that reads the process's environment (BannedSymbols.txt sends every other read here)
    public virtual string? Variable(string name) => Environment.GetEnvironmentVariable(name);
#pragma warning restore RS0030

    /// <remarks>
    /// A spec of spaces only is joined to the project directory first, as MSBuild's AbsolutePath joins it:
    /// Windows' Path.GetFullPath(" ") fails with "The path is empty.", while the joined path names the
    /// project directory itself (Windows drops trailing spaces), which MSBuild's Copy reports as a folder
    /// (MSB3024 for a destination, MSB3025 for a source).
    /// <para>
    /// A relative spec is joined to the directory read once per call before it is made full: Path.GetFullPath of
    /// a relative path reads the process's current directory again (getcwd, a system call per spec). The join is
    /// the one GetFullPath makes itself (a rooted spec, "C:x" and "\x" included, is kept as it is), so the
    /// result is the same.
    /// </para>
    /// </remarks>
    protected virtual string Resolve(string spec) =>
        System.IO.Path.GetFullPath(_currentDirectory is not null || IsBlank(spec) ? Join(spec) : spec);

    private static bool IsBlank(string spec) => spec[0] == ' ' && spec.Trim(' ').Length == 0;

    protected virtual string Join(string spec) => System.IO.Path.Combine(_currentDirectory ?? Environment.CurrentDirectory, spec);
}
