using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.MultiThreaded;

/// <summary>
/// A host where the summary cannot see its project's Copy calls (here a test engine, which stamps no project
/// build on events, as a task host's copy of the engine may not): with CloneCopyRequireClones set, the build
/// hears that the guard could not run (CLC007, at the guard's severity) instead of passing silently.
/// </summary>
public sealed class GuardWithoutStatisticsTests
{
    [Theory]
    [InlineData("error", false, "error CLC007")]
    [InlineData("warning", true, "warning CLC007")]
    public void The_guard_says_it_could_not_run(string guard, bool expectSuccess, string expected)
    {
        var engine = new TestBuildEngine();
        var summary = new CloneCopySummary { BuildEngine = engine, ProjectName = "App", RequireClones = guard };

        Assert.Equal(expectSuccess, summary.Execute());
        Assert.Contains(expected + ": CloneCopy: CloneCopyRequireClones is set, but this build host does not let CloneCopy see what App's Copy calls did", engine.Describe());
    }

    [Theory]
    [InlineData("")]
    [InlineData("false")]
    public void Without_the_guard_nothing_is_said(string guard)
    {
        var engine = new TestBuildEngine();
        var summary = new CloneCopySummary { BuildEngine = engine, ProjectName = "App", RequireClones = guard };

        Assert.True(summary.Execute());
        Assert.DoesNotContain("CLC007", engine.Describe());
    }
}
