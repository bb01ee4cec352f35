using System.Linq;
using Xunit;

namespace CloneCopy.Tests.Differential;

public sealed class VariantPinsTests
{
    /// <summary>A renamed scenario would leave its entry pinning nothing, and the lane checking less than it says.</summary>
    [Fact]
    public void Every_scenario_the_variant_pins_name_exists()
    {
        Assert.NotEmpty(VariantPins.ScenarioNames);
        Assert.All(VariantPins.ScenarioNames, name => Assert.Contains(name, CopyScenarios.All.Select(s => s.Name)));
    }
}
