using System.Collections.Generic;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// WroteAtLeastOneFile as Visual Studio's incremental build reads it (dotnet/msbuild #14231, MSBuild 18.10):
/// CopyFilesToOutputDirectory touches the up-to-date marker that referencing projects check when its main
/// assembly's Copy wrote the file, or when _CopyFilesMarkedCopyLocal's Copy wrote a reference. A wrong value
/// rebuilds dependents for nothing or skips them when it must not. Each scenario has that Copy's shape
/// (SkipUnchangedFiles from SkipCopyUnchangedFiles, true by default; Retries 10 and a 1000 ms delay, the
/// defaults of CopyRetryCount and CopyRetryDelayMilliseconds; the hard- and symbolic-link switches and
/// ErrorIfLinkFails as Create*LinksForCopyFilesToOutputDirectoryIfPossible set them) and runs twice, as two
/// builds: the first and the incremental second Copy must each give MSBuild's outputs. On the XFS tree the
/// copies are clones, on ext4 fallback copies. The value MSBuild's Copy gives in each run is pinned
/// (<see cref="CopyScenario.ExpectWroteAtLeastOneFile"/>), so a scenario cannot stop meaning what it says.
/// </summary>
public static partial class CopyScenarios
{
    private static IEnumerable<CopyScenario> MainAssembly()
    {
        static CopyParameters Shape(bool skipUnchanged = true, bool hardLink = false, bool symbolicLink = false, bool errorIfLinkFails = false) => new()
        {
            SourceFiles = ["obj/app.dll"],
            DestinationFolder = "bin",
            SkipUnchangedFiles = skipUnchanged,
            Retries = 10,
            RetryDelayMilliseconds = 1000,
            UseHardlinksIfPossible = hardLink,
            UseSymboliclinksIfPossible = symbolicLink,
            ErrorIfLinkFails = errorIfLinkFails,
        };
        static void Built(ScenarioTree t) => t.File("obj/app.dll", 40_000, 70);
        static void Rebuilt(ScenarioTree t) => t.Change("obj/app.dll", 40_100, 71);

        yield return new("main assembly to the output, then unchanged in an incremental build", Shape())
        { Arrange = Built, SecondRun = Shape(), ExpectSuccess = true, ExpectErrorCodes = "", ExpectWroteAtLeastOneFile = (true, false) };
        yield return new("main assembly to the output, then rebuilt before an incremental build", Shape())
        { Arrange = Built, BetweenRuns = Rebuilt, SecondRun = Shape(), ExpectSuccess = true, ExpectErrorCodes = "", ExpectWroteAtLeastOneFile = (true, true) };
        yield return new("main assembly already up to date in the output, built twice", Shape())
        {
            Arrange = t => { Built(t); t.UpToDateCopy("obj/app.dll", "bin/app.dll"); },
            SecondRun = Shape(),
            ExpectSuccess = true,
            ExpectErrorCodes = "",
            ExpectWroteAtLeastOneFile = (false, false),
        };
        yield return new("main assembly with SkipCopyUnchangedFiles false, built twice", Shape(skipUnchanged: false))
        { Arrange = Built, SecondRun = Shape(skipUnchanged: false), ExpectSuccess = true, ExpectErrorCodes = "", ExpectWroteAtLeastOneFile = (true, true) };
        yield return new("main assembly as a hard link, built twice", Shape(hardLink: true))
        { Arrange = Built, SecondRun = Shape(hardLink: true), ExpectSuccess = true, ExpectErrorCodes = "", ExpectWroteAtLeastOneFile = (true, false) };
        // The rebuild here writes the assembly in place, through the hard link: the output is then up to date and the
        // second Copy writes nothing (MSBuild's value; a compiler that writes a new file breaks the link instead).
        yield return new("main assembly as a hard link with ErrorIfLinkFails, rebuilt before an incremental build", Shape(hardLink: true, errorIfLinkFails: true))
        { Arrange = Built, BetweenRuns = Rebuilt, SecondRun = Shape(hardLink: true, errorIfLinkFails: true), ExpectSuccess = true, ExpectErrorCodes = "", ExpectWroteAtLeastOneFile = (true, false) };
        // A symbolic link's own size and time are not the assembly's: SkipUnchangedFiles never skips it, and each
        // build makes the link again and says it wrote (issue 25's relinking, here in the main assembly's shape).
        yield return new("main assembly as a symbolic link, built twice", Shape(symbolicLink: true))
        { UnixOnly = true, UsesSymbolicLinks = true, Arrange = Built, SecondRun = Shape(symbolicLink: true), ExpectSuccess = true, ExpectErrorCodes = "", ExpectWroteAtLeastOneFile = (true, true) };
        yield return new("main assembly as a symbolic link with ErrorIfLinkFails, built twice", Shape(symbolicLink: true, errorIfLinkFails: true))
        { UnixOnly = true, UsesSymbolicLinks = true, Arrange = Built, SecondRun = Shape(symbolicLink: true, errorIfLinkFails: true), ExpectSuccess = true, ExpectErrorCodes = "", ExpectWroteAtLeastOneFile = (true, true) };

        // _CopyFilesMarkedCopyLocal's Copy (DestinationFiles, the same switches): a second build with nothing
        // changed writes nothing; one with a reference changed writes.
        static CopyParameters CopyLocal() => new()
        {
            SourceFiles = ["a.txt", "b.txt", "cache/pkg.dll"],
            DestinationFiles = ["bin/a.txt", "bin/b.txt", "bin/pkg.dll"],
            SkipUnchangedFiles = true,
            Retries = 10,
            RetryDelayMilliseconds = 1000,
        };
        yield return new("copy-local references, then unchanged in an incremental build", CopyLocal())
        { SecondRun = CopyLocal(), ExpectSuccess = true, ExpectErrorCodes = "", ExpectWroteAtLeastOneFile = (true, false) };
        yield return new("copy-local references, then one updated before an incremental build", CopyLocal())
        { BetweenRuns = t => t.Change("cache/pkg.dll", 4200, 72), SecondRun = CopyLocal(), ExpectSuccess = true, ExpectErrorCodes = "", ExpectWroteAtLeastOneFile = (true, true) };
    }
}
