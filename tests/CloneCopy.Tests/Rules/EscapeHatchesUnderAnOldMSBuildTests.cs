using System.Diagnostics;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Rules;

/// <summary>
/// Under an MSBuild before 18.7 the retry and link switches are read once per process, from the process's environment
/// at the first Copy: only a process started with one switch and not the other shows that each is read for itself.
/// The test program is started again with one variable (the <c>--escape-hatches-under</c> mode) and says what
/// CloneCopy's Copy took from it, as under MSBuild 18.0.2 (the version seam), and as under 18.9.
/// </summary>
public sealed class EscapeHatchesUnderAnOldMSBuildTests
{
    [Theory]
    [InlineData("18.0.2")]
    [InlineData("18.9.11")]
    public void Each_switch_set_alone_turns_on_its_own_rule_and_no_other(string msbuild)
    {
        Assert.Equal("AlwaysRetry=True UseSymbolicLinksByDefault=False", Read(msbuild, CopyEscapeHatches.AlwaysRetryVariable));
        Assert.Equal("AlwaysRetry=False UseSymbolicLinksByDefault=True", Read(msbuild, CopyEscapeHatches.UseSymbolicLinksVariable));
        Assert.Equal("AlwaysRetry=False UseSymbolicLinksByDefault=False", Read(msbuild, variable: null));
    }

    private static string Read(string msbuild, string? variable)
    {
        var start = new ProcessStartInfo(System.Environment.ProcessPath!) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(typeof(EscapeHatchesUnderAnOldMSBuildTests).Assembly.Location);
        start.ArgumentList.Add("--escape-hatches-under");
        start.ArgumentList.Add(msbuild);
        start.Environment.Remove(CopyEscapeHatches.AlwaysRetryVariable);
        start.Environment.Remove(CopyEscapeHatches.UseSymbolicLinksVariable);
        if (variable is not null)
        {
            start.Environment[variable] = "1";
        }

        var (exitCode, output) = ProcessRunner.Run(start, timeoutSeconds: 60);
        Assert.True(exitCode == 0, output);
        return output.Trim();
    }
}
