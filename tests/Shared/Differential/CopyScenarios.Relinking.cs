using System;
using System.Collections.Generic;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// SkipUnchangedFiles where the source or the destination is a symbolic link. On Unix both tasks read a path's
/// size and last-write time with .NET's FileInfo, which reports a link's own (lstat: the length of the path it
/// holds, the time it was made or touched), not what it leads to's. A second build over a destination link the
/// first made: that link was made after the source link, so their own times differ and MSBuild's Copy deletes
/// the link, makes it again and says WroteAtLeastOneFile=True (targets key incremental work off that output).
/// </summary>
/// <remarks>
/// The source links' own times are fixed. Left as made, "link2.txt" (holding "&lt;root&gt;/link1.txt") and the
/// first build's "out/link2.txt" (holding "&lt;root&gt;/link2.txt") have the same own length, so whether the
/// second build skips depended only on whether both links were made within one tick of the kernel's coarse
/// clock (4 ms here): now and then one tree's pair was, the other's not, and the two tasks, which follow the
/// same rule, answered differently.
/// </remarks>
public static partial class CopyScenarios
{
    /// <summary>The source links' own last-write time: long before any build made a link from them.</summary>
    private static readonly DateTime SourceLinksMade = new(2024, 2, 3, 4, 5, 6, DateTimeKind.Utc);

    private static void LinkChain(ScenarioTree t) => t
        .SymbolicLink("link1.txt", "a.txt").SymbolicLink("link2.txt", "link1.txt")
        .LinkTime("link1.txt", SourceLinksMade).LinkTime("link2.txt", SourceLinksMade);

    private static IEnumerable<CopyScenario> Relinking()
    {
        var bySwitch = new Dictionary<string, string> { ["MSBuildUseSymboliclinksIfPossible"] = "true" };
        var parameters = new CopyParameters { SourceFiles = ["link2.txt"], DestinationFolder = "out", SkipUnchangedFiles = true };
        yield return new("symbolic link chain as a source, linked again by a second build by environment", parameters)
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Environment = bySwitch,
            Arrange = LinkChain,
            SecondRun = parameters,
            ExpectSuccess = true,
            ExpectWroteAtLeastOneFile = (true, true),
        };
        var asked = new CopyParameters { SourceFiles = ["link2.txt", "link1.txt"], DestinationFolder = "out", SkipUnchangedFiles = true, UseSymboliclinksIfPossible = true };
        yield return new("symbolic link chain as a source, linked again by a second build", asked)
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Arrange = LinkChain,
            SecondRun = asked,
            ExpectSuccess = true,
            ExpectWroteAtLeastOneFile = (true, true),
        };
        var plain = new CopyParameters { SourceFiles = ["link1.txt"], DestinationFolder = "out", SkipUnchangedFiles = true, UseSymboliclinksIfPossible = true };
        yield return new("symbolic link as a source, linked again by a second build", plain)
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Arrange = t => t.SymbolicLink("link1.txt", "a.txt").LinkTime("link1.txt", SourceLinksMade),
            SecondRun = plain,
            ExpectSuccess = true,
            ExpectWroteAtLeastOneFile = (true, true),
        };

        // The rule at its boundary, in one build: "out/link2.txt" holds "<root>/copy1.txt", as long as what
        // "link2.txt" holds ("<root>/link1.txt"), and leads to a copy of a.txt with a.txt's size and time, so
        // through the links (stat) the two are always alike; by the links' own times (lstat) they are alike
        // only when those are the same.
        var copied = new CopyParameters { SourceFiles = ["link2.txt"], DestinationFolder = "out", SkipUnchangedFiles = true };
        yield return new("symbolic link as a destination, its own size and time the source link's", copied)
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Arrange = t => LinkedDestination(t, SourceLinksMade),
            ExpectSuccess = true,
            ExpectErrorCodes = "",
            ExpectWroteAtLeastOneFile = (false, false),
        };
        yield return new("symbolic link as a destination, its own size the source link's, its own time not", copied)
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Arrange = t => LinkedDestination(t, SourceLinksMade.AddSeconds(1)),
            ExpectSuccess = true,
            ExpectErrorCodes = "",
            ExpectWroteAtLeastOneFile = (true, false),
        };
    }

    private static void LinkedDestination(ScenarioTree t, DateTime destinationLinkMade)
    {
        LinkChain(t);
        t.UpToDateCopy("a.txt", "copy1.txt").SymbolicLink("out/link2.txt", "copy1.txt").LinkTime("out/link2.txt", destinationLinkMade);
    }
}
