using System;
using System.Collections.Generic;
using System.IO;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// Spellings and shapes an outside tester found handled differently. Folder names spelled with
/// "." and "..", links that loop, folders nobody may read, devices as destinations, a trailing separator
/// on a file, a folder that looks up to date, and duplicates by another spelling or after a failure.
/// </summary>
public static partial class CopyScenarios
{
    private static readonly DateTime SharedTime = new(2021, 7, 8, 9, 10, 11, DateTimeKind.Utc);

    private static IEnumerable<CopyScenario> Spellings()
    {
        // 1. MSBuild names a source folder after its normalized full path.
        yield return new("source folder spelled with a trailing dot", new CopyParameters { SourceFolders = ["sf/."], DestinationFolder = "out" }) { ExpectSuccess = true, ExpectErrorCodes = "" };
        yield return new("source folder spelled with dot-dot", new CopyParameters { SourceFolders = ["sf/sub/.."], DestinationFolder = "out" }) { ExpectSuccess = true, ExpectErrorCodes = "" };
        yield return new("source folder spelled with a doubled separator", new CopyParameters { SourceFolders = ["sf//sub"], DestinationFolder = "out" }) { ExpectSuccess = true };
        yield return new("source folder spelled from inside with dot-dot", new CopyParameters { SourceFolders = ["./sf/other/../sub"], DestinationFolder = "out" }) { ExpectSuccess = true };

        // 2. A link to an ancestor is not entered; the real files are copied once.
        yield return new("source folder with a symbolic link to its own ancestor", new CopyParameters { SourceFolders = ["sf"], DestinationFolder = "out", Retries = 0 })
        {
            UsesSymbolicLinks = true,
            Arrange = t => t.SymbolicLink("sf/sub/up", "sf"),
            ExpectSuccess = true,
            ExpectErrorCodes = "",
        };
        yield return new("source folder with a symbolic link to a sibling folder", new CopyParameters { SourceFolders = ["sf"], DestinationFolder = "out", Retries = 0 })
        {
            UsesSymbolicLinks = true,
            Arrange = t => t.SymbolicLink("sf/sub/to-other", "sf/other"),
            ExpectSuccess = true,
        };

        // 3. A folder the user may not list contributes nothing (root may list it: then both copy it).
        yield return new("source folder with an unreadable subfolder", new CopyParameters { SourceFolders = ["sf"], DestinationFolder = "out", Retries = 0 })
        {
            UnixOnly = true,
            Arrange = t => t.File("sf/closed/c.txt", 300, 81).Mode("sf/closed", UnixFileMode.None),
            ExpectSuccess = true,
            ExpectErrorCodes = "",
        };

        // 5. Windows devices: NUL swallows the copy; CON is not a file MSBuild can write.
        yield return new("destination is the NUL device", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["NUL"], Retries = 1 }) { UnixOnly = false };
        yield return new("destination folder holds the NUL device", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["dir/NUL"], Retries = 1 }) { UnixOnly = false };
        yield return new("destination is the CON device", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["CON"], Retries = 1 }) { UnixOnly = false };

        // 6. A file spelled as a folder.
        yield return new("source file with a trailing separator", new CopyParameters { SourceFiles = ["sf/x.txt/"], DestinationFiles = ["o.txt"], Retries = 1 }) { ExpectSuccess = false };
        yield return new("destination file with a trailing separator", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["b.txt/"], Retries = 1 }) { ExpectSuccess = false };

        // 7. A folder as the source of a skip-unchanged copy whose destination shares the folder's time.
        yield return new("source is a directory with the destination's time, skip unchanged", new CopyParameters { SourceFiles = ["timed"], DestinationFiles = ["o.txt"], SkipUnchangedFiles = true, Retries = 1 })
        {
            Arrange = t =>
            {
                t.Directory("timed").File("o.txt", 40, 82).Touch("o.txt", SharedTime);
                Directory.SetLastWriteTimeUtc(Path.Combine(t.Root, "timed"), SharedTime);
            },
            ExpectErrorCodes = "MSB3021",
        };
        yield return new("source is a directory with another time, skip unchanged", new CopyParameters { SourceFiles = ["dir"], DestinationFiles = ["o.txt"], SkipUnchangedFiles = true })
        {
            Arrange = t => t.File("o.txt", 40, 83),
            ExpectErrorCodes = "MSB3025",
        };

        // 8. The same missing source twice: MSBuild's parallel loop reports it once and lists the second.
        yield return new("missing source listed twice", new CopyParameters { SourceFiles = ["nope.txt", "nope.txt"], DestinationFolder = "out" }) { ExpectErrorCodes = "MSB3030" };
        yield return new("missing source listed twice among others", new CopyParameters { SourceFiles = ["a.txt", "nope.txt", "nope.txt", "b.txt"], DestinationFolder = "out" }) { ExpectErrorCodes = "MSB3030" };

        // 9. One source by two spellings: two sources to MSBuild, each copied.
        yield return new("one source by two spellings to one destination", new CopyParameters { SourceFiles = ["a.txt", "./a.txt"], DestinationFiles = ["o.txt", "o.txt"] }) { ExpectSuccess = true };
        yield return new("one source by two spellings into one folder", new CopyParameters { SourceFiles = ["sf/x.txt", "sf/sub/../x.txt", "sf//x.txt"], DestinationFolder = "out" }) { ExpectSuccess = true };

        // 10. A destination spelled through a symbolic link and "..": the kernel resolves "link/.." to the link target's
        // parent, a normalized path drops both. A read-only file at one of the two places and not at the other: the
        // rules must look where the file is written (or both where MSBuild's Copy looks), never at one and write at the other.
        foreach (bool overwriteReadOnly in new[] { false, true })
        {
            string how = overwriteReadOnly ? ", overwrite read-only" : string.Empty;
            yield return new($"destination through a link and dot-dot, read-only where normalized, skip unchanged{how}", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["link/../out/a.txt"], SkipUnchangedFiles = true, OverwriteReadOnlyFiles = overwriteReadOnly, Retries = 0 })
            {
                UsesSymbolicLinks = true,
                Arrange = t => t.Directory("deep/inner").Directory("deep/out").SymbolicLink("link", "deep/inner").File("out/a.txt", 10, 91).ReadOnly("out/a.txt"),
            };
            yield return new($"destination through a link and dot-dot, read-only where the kernel resolves, skip unchanged{how}", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["link/../out/a.txt"], SkipUnchangedFiles = true, OverwriteReadOnlyFiles = overwriteReadOnly, Retries = 0 })
            {
                UsesSymbolicLinks = true,
                Arrange = t => t.Directory("deep/inner").SymbolicLink("link", "deep/inner").File("out/a.txt", 10, 93).File("deep/out/a.txt", 10, 92).ReadOnly("deep/out/a.txt"),
            };
        }
    }
}
