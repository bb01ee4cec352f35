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

    public TaskEnvironmentCopyEnvironment(TaskEnvironment environment) => _environment = environment;

    public override string? Variable(string name) => _environment.GetEnvironmentVariable(name);

    /// <summary>
    /// TaskEnvironment joins the spec to the project directory without normalising ("a/../b" stays); CloneCopy
    /// compares and reports normalised full paths, as it does when the process's directory is the project's.
    /// </summary>
    protected override string Resolve(string spec) => System.IO.Path.GetFullPath(_environment.GetAbsolutePath(spec).Value);

    protected override string Join(string spec) => _environment.GetAbsolutePath(spec).Value;
}
#endif
