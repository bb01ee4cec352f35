using System.Collections.Generic;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// A backslash in a source name, escaped in the item spec (%5C). On Unix MSBuild reads every
/// backslash of a path as a separator (FileUtilities.FixFilePath), so a file whose name holds a backslash is
/// not found: MSB3030, unless a file at the path with a slash there exists.
/// </summary>
public static partial class CopyScenarios
{
    private static IEnumerable<CopyScenario> Backslashes()
    {
        yield return new("escaped backslash in a source name", new CopyParameters { SourceFiles = ["back%5Cslash.txt"], DestinationFolder = "out" })
        {
            UnixOnly = true,
            Arrange = t => t.File("back\\slash.txt", 140, 25),
            ExpectErrorCodes = "MSB3030",
        };
        yield return new("escaped backslash in a source name, to destination files", new CopyParameters { SourceFiles = ["back%5Cslash.txt"], DestinationFiles = ["copy.txt"] })
        {
            UnixOnly = true,
            Arrange = t => t.File("back\\slash.txt", 140, 25),
            ExpectErrorCodes = "MSB3030",
        };
        yield return new("escaped backslash in a source name when the slashed path exists too", new CopyParameters { SourceFiles = ["back%5Cslash.txt"], DestinationFolder = "out" })
        {
            UnixOnly = true,
            Arrange = t => t.File("back\\slash.txt", 140, 25).File("back/slash.txt", 150, 26),
            ExpectSuccess = true,
        };
        yield return new("escaped backslash at the end of a source", new CopyParameters { SourceFiles = ["a.txt%5C"], DestinationFiles = ["o.txt"], Retries = 1 })
        {
            UnixOnly = true,
        };
        yield return new("escaped backslash in a destination name with skip unchanged", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["dir%5Cup.txt"], SkipUnchangedFiles = true })
        {
            UnixOnly = true,
            Arrange = t => t.UpToDateCopy("a.txt", "dir/up.txt"),
        };
    }
}
