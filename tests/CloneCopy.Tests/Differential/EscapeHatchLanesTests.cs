using System.Linq;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>The hatches lane covers every escape hatch the product honours, and nothing else.</summary>
public sealed class EscapeHatchLanesTests
{
    [Fact]
    public void Every_escape_hatch_of_the_product_has_scenarios_in_the_hatches_lane()
    {
        Assert.Equal(CopyEscapeHatches.Variables.OrderBy(v => v, System.StringComparer.Ordinal), EscapeHatchLanes.ScenariosByVariable.Keys.OrderBy(v => v, System.StringComparer.Ordinal));
        Assert.All(EscapeHatchLanes.ScenariosByVariable.Values, scenarios => Assert.False(string.IsNullOrWhiteSpace(scenarios)));
    }
}
