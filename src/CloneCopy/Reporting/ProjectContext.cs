using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// Finds which project build a task runs in. MSBuild stamps every event a task logs with the project
/// build's context; logging one low-importance message and reading the stamp back tells Copy calls and the
/// summary task of one project build apart from every other, on any node. Null where the host does not
/// stamp events (unit-test engines): then each Copy call summarises itself.
/// </summary>
internal static class ProjectContext
{
    public static int? Identify(IBuildEngine engine, string message)
    {
        var e = new BuildMessageEventArgs(message, null, "CloneCopy", MessageImportance.Low);
        engine.LogMessageEvent(e);
        BuildEventContext? context = e.BuildEventContext;
        return context is null || context.ProjectContextId == BuildEventContext.InvalidProjectContextId ? null : context.ProjectContextId;
    }
}
