using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>
/// The arguments after --, as a user gives them to `dotnet build` (docs/build-compare.md: "-- -c Release"), also reach
/// the one restore: `dotnet restore` has no -c, and refused the whole comparison with MSB1001 ("Unknown switch").
/// </summary>
public sealed class BuildArgumentsTests
{
    [Theory]
    [InlineData("-c|Release", "-p:Configuration=Release")]
    [InlineData("--configuration|Release", "-p:Configuration=Release")]
    [InlineData("-c:Release", "-p:Configuration=Release")]
    [InlineData("--configuration=Release|-p:Foo=Bar", "-p:Configuration=Release|-p:Foo=Bar")]
    [InlineData("-p:Foo=Bar|-v:d", "-p:Foo=Bar|-v:d")]
    [InlineData("-c", "-c")]
    public void The_configuration_switch_reaches_the_restore_as_the_property_it_sets(string given, string restored)
    {
        Assert.Equal(restored.Split('|'), RestoreArguments.From(given.Split('|')));
    }

    [Fact]
    public async Task A_comparison_with_dotnet_builds_configuration_switch_restores_and_builds_that_configuration()
    {
        using var repository = new TinyRepository();

        int code = await CompareCommand.RunAsync(new CompareOptions(repository.Project, 1, repository.Output, repository.Sdk, ["-c", "Release"], Interactive: false), CancellationToken.None);

        string logs = Path.Combine(repository.Output, "logs");
        Assert.True(code == 0, File.ReadAllText(Path.Combine(logs, "restore.log")));
        string[] builds = Directory.GetFiles(logs, "build-*.log");
        Assert.NotEmpty(builds);
        Assert.All(builds, log => Assert.Contains("/bin/Release/", File.ReadAllText(log).Replace('\\', '/'), System.StringComparison.Ordinal));
    }
}
