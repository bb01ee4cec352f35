using System.Linq;
using System.Text.RegularExpressions;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// The MSB3030 race as users meet it: two projects of one build (-m:2), one rewriting a file through Copy while the
/// other copies that file, both at once, many rounds per build, built several times. MSBuild's Copy and CloneCopy
/// without CloneCopyAtomicReplace delete the file before writing it: the other project's Copy finds it missing
/// (MSB3030, kept as a warning here by ContinueOnError so every round is counted). With the switch: never.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class AtomicReplaceBuildRaceTests
{
    private const int Rounds = 400;
    private const int Builds = 3;

    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;
    private readonly ITestOutputHelper _output;

    public AtomicReplaceBuildRaceTests(LoopFilesystems filesystems, PackedSdk sdk, ITestOutputHelper output)
    {
        _filesystems = filesystems;
        _sdk = sdk;
        _output = output;
    }

    [FilesystemTheory]
    [InlineData("-p:DisableCloneCopy=true")]
    [InlineData("")]
    public void Without_the_switch_the_project_that_copies_the_file_meets_MSB3030(string switches)
    {
        int seen = 0;
        for (int build = 0; build < Builds && seen == 0; build++)
        {
            seen += Race(switches, build);
        }

        Assert.True(seen > 0, $"no MSB3030 in {Builds} builds of {Rounds} rounds");
    }

    [FilesystemFact]
    public void With_the_switch_the_project_that_copies_the_file_never_meets_MSB3030()
    {
        for (int build = 0; build < Builds; build++)
        {
            Assert.Equal(0, Race("-p:CloneCopyAtomicReplace=true", build));
        }
    }

    /// <summary>One build; returns the MSB3030 count. The build must pass (the reader's failures are warnings).</summary>
    private int Race(string switches, int build)
    {
        var repository = new TestRepository(_filesystems.NewDirectory(FilesystemKind.Ext4, "msb3030"), _sdk).WriteGlobalJson(msbuildSdks: true);
        repository.Content("Writer/new.bin", 2 << 20, seed: 1);
        repository.Content("shared/lib.bin", 2 << 20, seed: 2);
        string rounds = string.Join(";", Enumerable.Range(1, Rounds));

        // Each side waits for the other to be there (MSBuild starts its second node later), then runs its rounds: one
        // Copy per round (target batching).
        string Project(string me, string other, string copy) => $"""
            <Project DefaultTargets="Build">
              <Sdk Name="CloneCopy" />
              <ItemGroup><Round Include="{rounds}" /></ItemGroup>
              <Target Name="Meet">
                <Touch Files="$(MSBuildThisFileDirectory)../{me}.ready" AlwaysCreate="true" />
                <Exec Command="for i in %24(seq 1 3000); do [ -f ../{other}.ready ] &amp;&amp; exit 0; sleep 0.01; done; exit 1" />
              </Target>
              <Target Name="Round" DependsOnTargets="Meet" Outputs="%(Round.Identity)">
                {copy}
              </Target>
              <Target Name="Build" DependsOnTargets="Round" />
            </Project>
            """;
        repository.Write("Writer/Writer.proj", Project("writer", "reader",
            """<Copy SourceFiles="new.bin" DestinationFiles="../shared/lib.bin" RetryDelayMilliseconds="1" />"""));
        repository.Write("Reader/Reader.proj", Project("reader", "writer",
            """<Copy SourceFiles="../shared/lib.bin" DestinationFolder="read" RetryDelayMilliseconds="1" ContinueOnError="true" />"""));
        repository.Write("race.proj", """
            <Project DefaultTargets="Build">
              <Target Name="Build"><MSBuild Projects="Writer/Writer.proj;Reader/Reader.proj" BuildInParallel="true" /></Target>
            </Project>
            """);

        var (code, log) = Dotnet.Run($"msbuild race.proj -m:2 -nologo -v:m {switches}", repository.Root, repository.NuGetPackages);
        int missing = Regex.Count(log, @"warning MSB3030");
        int retried = Regex.Count(log, @"warning MSB3026");
        _output.WriteLine($"build {build} with '{switches}': exit {code}, MSB3030 {missing}, MSB3026 {retried}");
        Assert.True(code == 0, log);
        Assert.DoesNotContain("error", log, System.StringComparison.OrdinalIgnoreCase);
        return missing;
    }
}
