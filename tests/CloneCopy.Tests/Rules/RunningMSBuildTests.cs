using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Threading;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Rules;

/// <summary>
/// The running MSBuild's version, read from the Microsoft.Build.Framework assembly loaded in this process, and the
/// rules that follow it (docs/fidelity.md, "MSBuild's Copy by version").
/// </summary>
public sealed class RunningMSBuildTests
{
    [Fact]
    public void The_version_is_the_one_of_the_Framework_assembly_loaded_in_this_process()
    {
        Assembly framework = typeof(ITask).Assembly;
        // Read another way: the file's own version resource, of the very file the process loaded.
        string? product = FileVersionInfo.GetVersionInfo(framework.Location).ProductVersion;

        Assert.NotNull(RunningMSBuild.Current.Version);
        Assert.Equal(RunningMSBuild.Parse(product), RunningMSBuild.Current.Version);
        Assert.True(RunningMSBuild.Current.Version >= new Version(17, 8), $"{RunningMSBuild.Current} from {framework.Location}");
    }

    [Theory]
    [InlineData("18.0.2+6c2f0a8ad1c24efbd5b4efd61b18ed7d4e9a4ec4", "18.0.2")]
    [InlineData("18.10.0-preview-26311-02+abc", "18.10.0")]
    [InlineData("18.0.2.51205", "18.0.2")]
    [InlineData("17.8", "17.8.0")]
    [InlineData("", null)]
    [InlineData("preview", null)]
    public void A_version_is_read_as_major_minor_build(string text, string? expected) =>
        Assert.Equal(expected is null ? null : Version.Parse(expected), RunningMSBuild.Parse(text));

    [Theory]
    [InlineData("18.0.2", true)] // .NET SDK 10.0.1xx: fails at once with MSB3021
    [InlineData("18.7.1", true)]
    [InlineData("18.8.2", false)] // dotnet/msbuild #13479: retried (while change wave 18.7 is on)
    [InlineData("18.12.2", false)]
    [InlineData(null, false)] // an unreadable version: the newest rules
    public void Access_denied_off_Windows_is_retried_only_under_an_MSBuild_that_retries_it(string? msbuild, bool finalUnlessWaveOff)
    {
        var options = new CopyOptions(CopyEscapeHatches.FromEnvironment(CopyEnvironment.Process))
        {
            Retries = 10,
            MSBuild = new RunningMSBuild(msbuild is null ? null : Version.Parse(msbuild)),
        };
        var retries = new CopyRetries(new TaskLoggingHelper(new TestBuildEngine(), "Copy"), options, CancellationToken.None);
        var pair = new CopyPair(0, new TaskItem("a.txt"), "a.txt", new TaskItem("out/a.txt"));

        bool final = retries.IsFinal(new UnauthorizedAccessException("Access to the path 'out/a.txt' is denied."), pair);

        // This process's change waves (the waves lane turns 18.7 off) decide too, as MSBuild's own ChangeWaves do.
        bool waveOn = MSBuildChangeWaves.AreFeaturesEnabled(MSBuildChangeWaves.Wave18_7);
        Assert.Equal(finalUnlessWaveOff || !waveOn, final);
        // Another I/O failure is retried under every MSBuild.
        Assert.False(retries.IsFinal(new IOException("The process cannot access the file."), pair));
    }
}

/// <summary>
/// In every differential lane (trait Lane=Differential): the suite runs against the MSBuild it was built against, and
/// says which (the lane's output, with -showLiveOutput; the msbuild-* lanes' lines name it too).
/// </summary>
[Trait("Lane", "Differential")]
public sealed class RunningMSBuildLaneTests
{
    private readonly ITestOutputHelper _output;

    public RunningMSBuildLaneTests(ITestOutputHelper output) => _output = output;

    [Fact]
    public void A_build_against_a_packaged_MSBuild_runs_against_that_MSBuild()
    {
        // tests/CloneCopy.Tests built with -p:CloneCopyCompareMSBuild=<version> records the version it was built
        // against; without it, the SDK's MSBuild runs the suite (the assembly beside it, from $(MSBuildBinPath)).
        string? compared = typeof(RunningMSBuildTests).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .SingleOrDefault(a => a.Key == "CloneCopyCompareMSBuild")?.Value;
        string loadedFrom = Path.GetDirectoryName(typeof(ITask).Assembly.Location)!;
        _output.WriteLine($"the suite runs against MSBuild {RunningMSBuild.Current} ({loadedFrom})");

        Assert.Equal(Path.GetFullPath(AppContext.BaseDirectory).TrimEnd('/'), loadedFrom.TrimEnd('/'));
        if (!string.IsNullOrEmpty(compared))
        {
            Assert.Equal(RunningMSBuild.Parse(compared), RunningMSBuild.Current.Version);
        }
        else
        {
            Assert.True(RunningMSBuild.Current.Version >= new Version(18, 9), $"the SDK's MSBuild is {RunningMSBuild.Current}");
        }
    }
}
