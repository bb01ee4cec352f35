using System;
using System.Collections.Generic;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// Item specs that are blank (" "). MSBuild joins them to the project directory without
/// normalising; on Windows the trailing space then falls away, so the path names the project directory
/// itself. On Unix " " is a name like any other: a blank source is missing (MSB3030), a blank destination is
/// written. Pinned on Unix, where the lanes saw these codes; under Windows semantics the comparison alone holds.
/// </summary>
public static partial class CopyScenarios
{
    private static IEnumerable<CopyScenario> BlankSpecs()
    {
        string? missing = OperatingSystem.IsWindows() ? null : "MSB3030", none = OperatingSystem.IsWindows() ? null : string.Empty;
        yield return new("blank source item to a folder", new CopyParameters { SourceFiles = [" "], DestinationFolder = "out", Retries = 0 }) { ExpectErrorCodes = missing };
        // Beside an ordinary source, into a folder that is already there: under Windows semantics the blank source names
        // the current folder and its destination, "out\ ", names "out" itself (MSB3024, the destination checked first). Into
        // a folder the ordinary source's pair makes, MSBuild's answer is a race between its copy threads (MSB3024 when the
        // blank pair is looked at after the folder is made, else the source's MSB3025: both seen under Wine), while
        // CloneCopy takes the pairs in order on the calling thread; so the folder is made beforehand here.
        yield return new("blank source item beside an ordinary one to a folder that exists", new CopyParameters { SourceFiles = [" ", "a.txt"], DestinationFolder = "out", Retries = 0 })
        {
            Arrange = t => t.Directory("out"),
            ExpectErrorCodes = missing,
        };
        yield return new("ordinary source then a blank one to a folder that exists", new CopyParameters { SourceFiles = ["a.txt", " "], DestinationFolder = "out", Retries = 0 })
        {
            Arrange = t => t.Directory("out"),
            ExpectErrorCodes = missing,
        };
        yield return new("blank source item to a file", new CopyParameters { SourceFiles = [" "], DestinationFiles = ["o.txt"], Retries = 0 }) { ExpectErrorCodes = missing };
        yield return new("blank destination item", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = [" "], Retries = 0 }) { ExpectErrorCodes = none };
        yield return new("blank source and destination items", new CopyParameters { SourceFiles = [" "], DestinationFiles = [" "], Retries = 0 }) { ExpectErrorCodes = none };
    }
}
