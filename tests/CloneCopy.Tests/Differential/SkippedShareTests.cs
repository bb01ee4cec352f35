using System.Linq;
using CloneCopy.Tests.Differential.Generated;
using Xunit;
using Xunit.Sdk;

namespace CloneCopy.Tests.Differential;

public sealed class SkippedShareTests
{
    [Theory]
    [InlineData(150, 15, true)]
    [InlineData(150, 16, false)]
    [InlineData(40, 4, true)]
    [InlineData(40, 5, false)]
    [InlineData(1, 1, false)] // one seed reproduced, and it could not be judged
    public void A_run_may_skip_at_most_a_tenth_of_its_cases(int cases, int skipped, bool passes)
    {
        var report = new GeneratedReport(1, cases) { Same = cases - skipped };
        report.SkippedNondeterministic.AddRange(Enumerable.Range(1, skipped));

        var failure = Record.Exception(() => SkippedShare.AssertWithinShare(report));

        Assert.Equal(passes, failure is null);
        Assert.True(failure is null or XunitException, failure?.ToString());
    }

    [Theory]
    [InlineData(150, 10, 5, true)]
    [InlineData(150, 10, 6, false)]
    [InlineData(40, 0, 5, false)]
    [InlineData(1, 0, 1, false)] // a seed whose difference did not recur is not a pass either
    public void Differences_that_did_not_recur_count_in_the_same_tenth(int cases, int skipped, int notReproduced, bool passes)
    {
        var report = new GeneratedReport(1, cases) { Same = cases - skipped - notReproduced };
        report.SkippedNondeterministic.AddRange(Enumerable.Range(1, skipped));
        report.NotReproduced.AddRange(Enumerable.Range(skipped + 1, notReproduced));

        var failure = Record.Exception(() => SkippedShare.AssertWithinShare(report));

        Assert.Equal(passes, failure is null);
        Assert.True(failure is null or XunitException, failure?.ToString());
    }
}
