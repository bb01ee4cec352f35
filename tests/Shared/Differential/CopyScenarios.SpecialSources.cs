using System.Collections.Generic;
using System.IO;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// Sources whose size does not say what they hold: a named pipe fed by a writer and a /proc file
/// both have a size of 0 and content. MSBuild's Copy (File.Copy) reads them to their end. Each task gets its
/// own pipe and its own writer, which gives up after a minute, so no scenario can hang.
/// </summary>
public static partial class CopyScenarios
{
    private static IEnumerable<CopyScenario> SpecialSources()
    {
        yield return new("named pipe fed by a writer as a source", new CopyParameters { SourceFiles = ["pipe"], DestinationFolder = "out" })
        {
            LinuxOnly = true,
            Arrange = t => Infrastructure.SpecialSources.MakePipe(Path.Combine(t.Root, "pipe")),
            WhileCopying = t => Infrastructure.SpecialSources.Feed(Path.Combine(t.Root, "pipe")),
            ExpectSuccess = true,
            ExpectErrorCodes = "",
        };
        yield return new("named pipe fed by a writer over an existing destination", new CopyParameters { SourceFiles = ["pipe"], DestinationFiles = ["b.txt"], SkipUnchangedFiles = true })
        {
            LinuxOnly = true,
            Arrange = t => Infrastructure.SpecialSources.MakePipe(Path.Combine(t.Root, "pipe")),
            WhileCopying = t => Infrastructure.SpecialSources.Feed(Path.Combine(t.Root, "pipe")),
            ExpectSuccess = true,
        };
        yield return new("named pipe linked instead of copied", new CopyParameters { SourceFiles = ["pipe"], DestinationFolder = "out", UseHardlinksIfPossible = true })
        {
            LinuxOnly = true,
            Arrange = t => Infrastructure.SpecialSources.MakePipe(Path.Combine(t.Root, "pipe")),
            WhileCopying = t => Infrastructure.SpecialSources.Feed(Path.Combine(t.Root, "pipe")),
            ExpectSuccess = true,
        };
        yield return new("/proc file as a source", new CopyParameters { SourceFiles = [Infrastructure.SpecialSources.ProcFile], DestinationFolder = "out" })
        {
            LinuxOnly = true,
            Arrange = _ => Infrastructure.SpecialSources.PinProcFile(),
            ExpectSuccess = true,
            ExpectErrorCodes = "",
        };
        yield return new("/proc file twice, to destination files, skipping unchanged", new CopyParameters { SourceFiles = [Infrastructure.SpecialSources.ProcFile, Infrastructure.SpecialSources.ProcFile], DestinationFiles = ["out/ostype", "a.txt"], SkipUnchangedFiles = true })
        {
            LinuxOnly = true,
            Arrange = _ => Infrastructure.SpecialSources.PinProcFile(),
            SecondRun = new CopyParameters { SourceFiles = [Infrastructure.SpecialSources.ProcFile], DestinationFiles = ["out/ostype"], SkipUnchangedFiles = true },
            ExpectSuccess = true,
        };
    }
}
