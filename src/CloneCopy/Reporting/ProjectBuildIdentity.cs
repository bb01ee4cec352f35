using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// Finds which project build a task runs in, so that the Copy calls, the settings, the stage marks and the
/// summary of one project build share their statistics (<see cref="BuildStatistics"/>) on any node.
/// <para>
/// MSBuild offers a task no way to ask this: IBuildEngine and its successors expose the project file and
/// node, not the project build's context id, which MSBuild puts only on the events a task logs. So a task logs
/// one low-importance message (the caller's text, which says what the task is doing, e.g. "CloneCopy:
/// summarising this project's copies") and reads the context MSBuild stamped on it. The message is the price
/// of the answer, visible only at diagnostic verbosity; keep it short and truthful.
/// </para>
/// Null where the host does not stamp events (unit-test engines): then each Copy call summarises itself.
/// </summary>
internal static class ProjectBuildIdentity
{
    public static int? Identify(IBuildEngine engine, string message) => Identify(engine, message, out _);

    /// <summary>
    /// The project build, and in <paramref name="configuration"/> the project instance (the configuration: a project file
    /// with its global properties) whose requests that build is one of; both from the same stamp.
    /// </summary>
    public static int? Identify(IBuildEngine engine, string message, out int configuration)
    {
        var e = new BuildMessageEventArgs(message, null, "CloneCopy", MessageImportance.Low);
        engine.LogMessageEvent(e);
        BuildEventContext? context = e.BuildEventContext;
        if (context is null || context.ProjectContextId == BuildEventContext.InvalidProjectContextId)
        {
            configuration = BuildEventContext.InvalidProjectInstanceId;
            return null;
        }

        configuration = context.ProjectInstanceId;
        return context.ProjectContextId;
    }
}
