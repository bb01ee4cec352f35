using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// The differential suite holds the built-in task's pinned outcomes only where they were observed, Linux and Wine
/// (<see cref="DifferentialRunner.PinsHoldHere"/>); on Windows itself only the comparison. So the wine lane must know it
/// runs under Wine: a detection that failed would silently drop every pin from that lane.
/// </summary>
[Trait("Needs", "Wine")]
public sealed class DifferentialPinsUnderWineTests
{
    [Fact]
    public void Under_Wine_the_pins_hold()
    {
        Assert.True(DifferentialRunner.UnderWine, "this process runs under Wine (the wine lane), yet ntdll's wine_get_version was not found");
        Assert.True(DifferentialRunner.PinsHoldHere);
    }
}
