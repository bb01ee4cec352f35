#if CLONECOPY_MULTITHREADED
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// A Copy call's project directory and environment as MSBuild's TaskEnvironment gives them: the same three
/// escape hatches and the same path resolution as MSBuild's own Copy takes from it. Only in the build of the
/// task assembly compiled against an MSBuild that has TaskEnvironment (18.3, .NET SDK 10.0.200, and later).
/// </summary>
internal sealed class TaskEnvironmentCopyEnvironment : CopyEnvironment
{
    private readonly TaskEnvironment _environment;

    /// <summary>
    /// The project directory, read once per Copy call. Outside -mt MSBuild's TaskEnvironment answers it (and every
    /// GetAbsolutePath) with the process's current directory, a getcwd system call each time: four per file.
    /// </summary>
    private readonly string _projectDirectory;

    public TaskEnvironmentCopyEnvironment(TaskEnvironment environment)
    {
        _environment = environment;
        _projectDirectory = environment.ProjectDirectory.Value;
    }

    public override string? Variable(string name) => _environment.GetEnvironmentVariable(name);

    /// <summary>
    /// TaskEnvironment joins the spec to the project directory without normalising ("a/../b" stays); CloneCopy
    /// compares and reports normalised full paths, as it does when the process's directory is the project's.
    /// </summary>
    protected override string Resolve(string spec) => System.IO.Path.GetFullPath(Join(spec));

    protected override bool ResolvesByJoining => true;

    /// <summary>
    /// The join GetAbsolutePath makes (MSBuild's AbsolutePath: Path.Combine of the project directory and the spec,
    /// a rooted spec kept as it is), on the directory read once. An empty spec still goes to GetAbsolutePath, so
    /// that it fails or not as there.
    /// </summary>
    protected override string Join(string spec) =>
        spec.Length == 0 ? _environment.GetAbsolutePath(spec).Value : System.IO.Path.Combine(_projectDirectory, spec);
}
#endif
