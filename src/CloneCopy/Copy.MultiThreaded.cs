#if CLONECOPY_MULTITHREADED
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// MSBuild's multithreaded mode (-mt, MSBuild 18.3 and later): the attribute lets the task run on the
/// project's thread in MSBuild's process, as MSBuild's own Copy does, instead of in a task-host process
/// one call at a time; TaskEnvironment gives it the project's directory and environment, which the process's
/// are not. Compiled only into the task assembly built for hosts that have these types (Sdk.targets picks it
/// by MSBuild's version): elsewhere a class implementing the interface would not load.
/// </summary>
[MSBuildMultiThreadableTask]
public sealed partial class Copy : IMultiThreadableTask
{
    /// <inheritdoc />
    public TaskEnvironment TaskEnvironment { get; set; } = TaskEnvironment.Fallback;

    private CopyEnvironment CallEnvironment() => new TaskEnvironmentCopyEnvironment(TaskEnvironment);
}
#else
namespace CloneCopy;

/// <summary>Hosts without MSBuild's multithreaded API: the process's directory is the project's.</summary>
public sealed partial class Copy
{
    private static CopyEnvironment CallEnvironment() => CopyEnvironment.Process;
}
#endif
