using System.Collections.Generic;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// A second build over a destination that is a symbolic link made by the first. The link's own
/// size and time are not the source's, so SkipUnchangedFiles does not skip it: MSBuild's Copy deletes the
/// link, makes it again and says WroteAtLeastOneFile=True (targets key incremental work off that output).
/// </summary>
public static partial class CopyScenarios
{
    private static IEnumerable<CopyScenario> Relinking()
    {
        var bySwitch = new Dictionary<string, string> { ["MSBuildUseSymboliclinksIfPossible"] = "true" };
        var parameters = new CopyParameters { SourceFiles = ["link2.txt"], DestinationFolder = "out", SkipUnchangedFiles = true };
        yield return new("symbolic link chain as a source, linked again by a second build by environment", parameters)
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Environment = bySwitch,
            Arrange = t => t.SymbolicLink("link1.txt", "a.txt").SymbolicLink("link2.txt", "link1.txt"),
            SecondRun = parameters,
            ExpectSuccess = true,
        };
        var asked = new CopyParameters { SourceFiles = ["link2.txt", "link1.txt"], DestinationFolder = "out", SkipUnchangedFiles = true, UseSymboliclinksIfPossible = true };
        yield return new("symbolic link chain as a source, linked again by a second build", asked)
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Arrange = t => t.SymbolicLink("link1.txt", "a.txt").SymbolicLink("link2.txt", "link1.txt"),
            SecondRun = asked,
            ExpectSuccess = true,
        };
        var plain = new CopyParameters { SourceFiles = ["link1.txt"], DestinationFolder = "out", SkipUnchangedFiles = true, UseSymboliclinksIfPossible = true };
        yield return new("symbolic link as a source, linked again by a second build", plain)
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Arrange = t => t.SymbolicLink("link1.txt", "a.txt"),
            SecondRun = plain,
            ExpectSuccess = true,
        };
    }
}
