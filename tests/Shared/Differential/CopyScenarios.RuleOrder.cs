using System.Collections.Generic;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// Scenarios for rules whose order or reference point a small mistake would change while every other scenario
/// still passed: the same-path rule before FailIfNotIncremental, and the parallel loop's duplicate
/// rule comparing each source with the previous one of its destination, not the first.
/// </summary>
public static partial class CopyScenarios
{
    private static IEnumerable<CopyScenario> RuleOrder()
    {
        // A file copied onto itself is done before FailIfNotIncremental is asked: MSBuild's Copy succeeds.
        yield return new("fail if not incremental onto itself", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["a.txt"], FailIfNotIncremental = true })
        { ExpectSuccess = true, ExpectErrorCodes = "" };

        // A, B, A to one destination: the third is not the previous source (B), so it is copied again and A wins.
        yield return new("sources A, B, A to one destination", new CopyParameters { SourceFiles = ["a.txt", "b.txt", "a.txt"], DestinationFiles = ["o.txt", "o.txt", "o.txt"] })
        { ExpectSuccess = true, ExpectErrorCodes = "" };
    }
}
