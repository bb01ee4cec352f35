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

    /// <summary>
    /// <see cref="FullPathOf(string)"/> of a non-empty spec whose <see cref="AbsolutePathOf"/> is already known: where
    /// the spec is resolved by joining it first (every Copy call's environment) and the join is already normal (on
    /// Unix: rooted, no "." or ".." segment, no doubled or trailing separator), GetFullPath would return it unchanged,
    /// so it is returned without another pass over it. Anything else is resolved as before.
    /// </summary>
    public string FullPathOf(string spec, string absolute) =>
        ResolvesByJoining && IsNormalUnixPath(absolute) ? absolute : FullPathOf(spec);

    /// <summary>True where <see cref="Resolve"/> is GetFullPath of <see cref="Join"/> for every non-empty spec.</summary>
    protected virtual bool ResolvesByJoining => _currentDirectory is not null;

    private static bool IsNormalUnixPath(string path)
    {
        if (System.IO.Path.DirectorySeparatorChar != '/' || path.Length < 2 || path[0] != '/' || path[path.Length - 1] == '/')
        {
            return false;
        }

        for (int i = 1; i < path.Length; i++)
        {
            char c = path[i];
            if (c == '\0' || (c == '/' && path[i - 1] == '/'))
            {
                return false;
            }

            if (c == '.' && path[i - 1] == '/')
            {
                char next = i + 1 < path.Length ? path[i + 1] : '/';
                if (next == '/' || (next == '.' && (i + 2 >= path.Length || path[i + 2] == '/')))
                {
                    return false;
                }
            }
        }

        return true;
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
