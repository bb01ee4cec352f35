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
    // Not initialised with TaskEnvironment.Fallback: that member exists only from MSBuild 18.6, and touching it
    // would make this class fail to construct (MissingMethodException) on MSBuild 18.3-18.5, which Sdk.targets
    // also hands this assembly. MSBuild sets the property before Execute; a host that does not (a test engine)
    // gets the process's directory and environment, which is what the fallback environment is.
    private TaskEnvironment? _taskEnvironment;

    /// <inheritdoc />
    public TaskEnvironment TaskEnvironment
    {
        get => _taskEnvironment!;
        set => _taskEnvironment = value;
    }

    private CopyEnvironment CallEnvironment() =>
        _taskEnvironment is { } environment ? new TaskEnvironmentCopyEnvironment(environment) : CopyEnvironment.ForProcess();
}
#else
namespace CloneCopy;

/// <summary>Hosts without MSBuild's multithreaded API: the process's directory is the project's.</summary>
public sealed partial class Copy
{
    private static CopyEnvironment CallEnvironment() => CopyEnvironment.ForProcess();
}
#endif
