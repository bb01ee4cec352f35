using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// The scenarios that need many combinations: every kind of source and destination by read-only and hidden,
/// with and without OverwriteReadOnlyFiles, each followed by a second build after the source changed; every
/// class of error; links and folders of such files; retries and MSBuild's switches.
/// </summary>
public static partial class CopyScenarios
{
    /// <summary>What a file in the matrix is like: plain, read-only, hidden, or both.</summary>
    private enum FileKind
    {
        Writable,
        ReadOnly,
        Hidden,
        HiddenReadOnly,
    }

    private static FileKind[] Kinds => [FileKind.Writable, FileKind.ReadOnly, FileKind.Hidden, FileKind.HiddenReadOnly];

    private static string Describe(FileKind kind) => kind switch
    {
        FileKind.ReadOnly => "read-only",
        FileKind.Hidden => "hidden",
        FileKind.HiddenReadOnly => "hidden read-only",
        _ => "writable",
    };

    private static string FileName(string role, FileKind kind)
    {
        string name = $"{role}-{kind.ToString().ToLowerInvariant()}.txt";
        return kind is FileKind.Hidden or FileKind.HiddenReadOnly ? ScenarioTree.HiddenName(name) : name;
    }

    private static void Make(ScenarioTree tree, string name, FileKind kind, int length, int seed)
    {
        tree.File(name, length, seed);
        if (kind is FileKind.Hidden or FileKind.HiddenReadOnly)
        {
            tree.Hidden(name);
        }

        if (kind is FileKind.ReadOnly or FileKind.HiddenReadOnly)
        {
            tree.ReadOnly(name);
        }
    }

    /// <summary>
    /// 4 sources x 5 destinations (none, or one of the 4 kinds) x OverwriteReadOnlyFiles: 40 scenarios, each
    /// a first build and a second one (SkipUnchangedFiles, as incremental builds copy) after the source
    /// changed. A read-only source must not leave a destination the next build cannot replace.
    /// </summary>
    private static IEnumerable<CopyScenario> AttributeMatrix()
    {
        foreach (FileKind source in Kinds)
        {
            foreach (FileKind? destination in Kinds.Cast<FileKind?>().Prepend(null))
            {
                foreach (bool overwrite in new[] { false, true })
                {
                    string sourceName = FileName("src", source);
                    string destinationName = destination is FileKind d ? FileName("dst", d) : "out/" + sourceName;
                    string name = $"{Describe(source)} source onto {(destination is FileKind k ? "a " + Describe(k) + " destination" : "no destination")}{(overwrite ? " with overwrite" : string.Empty)}, then the source changes";
                    var first = new CopyParameters { SourceFiles = [sourceName], DestinationFiles = [destinationName], OverwriteReadOnlyFiles = overwrite, Retries = 1 };
                    yield return new(name, first)
                    {
                        Arrange = t =>
                        {
                            Make(t, sourceName, source, 2500, 21);
                            if (destination is FileKind existing)
                            {
                                Make(t, destinationName, existing, 900, 22);
                            }
                        },
                        BetweenRuns = t => t.Change(sourceName, 2600, 23),
                        SecondRun = new CopyParameters { SourceFiles = [sourceName], DestinationFiles = [destinationName], OverwriteReadOnlyFiles = overwrite, SkipUnchangedFiles = true, Retries = 1 },
                    };
                }
            }
        }
    }

    /// <summary>Every class of failure: missing, directory, access denied, locked, full disk, name too long.</summary>
    private static IEnumerable<CopyScenario> ErrorClasses()
    {
        // Access denied: a destination folder the user may not write (root may: then both copy).
        yield return new("destination folder not writable", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "locked-dir", Retries = 2 })
        {
            UnixOnly = true,
            Arrange = t => t.Directory("locked-dir").Mode("locked-dir", UnixFileMode.UserRead | UnixFileMode.UserExecute),
            BetweenRuns = t => { },
        };
        yield return new("source not readable", new CopyParameters { SourceFiles = ["secret.txt"], DestinationFolder = "out", Retries = 2 })
        {
            UnixOnly = true,
            Arrange = t => t.File("secret.txt", 300, 31).Mode("secret.txt", UnixFileMode.None),
        };
        yield return new("destination not writable and not deletable", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["sealed/a.txt"], Retries = 2 })
        {
            UnixOnly = true,
            Arrange = t => t.File("sealed/a.txt", 10, 32).Mode("sealed/a.txt", UnixFileMode.UserRead).Mode("sealed", UnixFileMode.UserRead | UnixFileMode.UserExecute),
        };

        // Locked: another handle holds the file without sharing while the copy runs.
        yield return new("source held open without sharing", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", Retries = 2 })
        {
            WhileCopying = t => t.HoldWithoutSharing("a.txt"),
        };
        yield return new("destination held open without sharing", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["b.txt"], Retries = 2 })
        {
            WhileCopying = t => t.HoldWithoutSharing("b.txt"),
        };
        yield return new("read-only destination held open without sharing", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["ro.txt"], Retries = 1 })
        {
            Arrange = t => t.File("ro.txt", 10, 33).ReadOnly("ro.txt"),
            WhileCopying = t => t.HoldWithoutSharing("ro.txt"),
        };

        // Full disk: MSBuild's File.Copy leaves what it wrote; CloneCopy removes it (README: intended differences).
        // The destination folder exists before the disk is filled: how much a filled ext4 still lets a new folder take
        // is not the same from one fill to the next (it reserves clusters for metadata that its free count includes),
        // so once, in a fresh-clone CI run under load, MSBuild's Copy failed creating "out" and CloneCopy writing the
        // file, and the two runs differed for the harness's sake. Now both fail writing the file.
        yield return new("full disk", new CopyParameters { SourceFiles = ["big.bin"], DestinationFolder = "out", Retries = 1 })
        {
            UnixOnly = true,
            Arrange = t => t.Directory("out"),
            WhileCopying = t => t.FillDisk(256 * 1024),
            DifferingPaths = [@"out/big\.bin"],
            IntendedDifference = t => Assert.False(File.Exists(Path.Combine(t.Root, "out", "big.bin")) && new FileInfo(Path.Combine(t.Root, "out", "big.bin")).Length != 1024 * 1024, "a half-written destination survived"),
        };

        // The intended differences of the README, asserted as CloneCopy documents them.
        yield return new("destination is the source through a symbolic link to its folder", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["alias/a.txt"], Retries = 0 })
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Arrange = t => t.SymbolicLink("alias", "."),
            OutputsDiffer = true,
            DifferingPaths = [@"(alias/)*a\.txt"], // a.txt, also as reached through alias/
            ExpectSuccess = false, // MSBuild's Copy deletes "alias/a.txt", which is a.txt, and then cannot copy it
            IntendedDifference = t => Assert.Equal(TestFiles.Content(3000, 1), File.ReadAllBytes(Path.Combine(t.Root, "a.txt"))),
        };
        // As root MSBuild's Copy writes the new bytes through the link into the cache (CloneCopy replaces the
        // link: intended); as another user it fails with access denied, and so does CloneCopy.
        yield return new("read-only destination hard-linked to a package cache file", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["bin/pkg.dll"], Retries = 0 })
        {
            UnixOnly = true,
            Arrange = t => t.HardLink("bin/pkg.dll", "cache/pkg.dll").ReadOnly("bin/pkg.dll"),
            DifferenceReplacesDestination = true,
            DifferingPaths = [@"bin/pkg\.dll", @"cache/pkg\.dll"],
            IntendedDifference = RunningAsRoot ? CacheKeptAndLinkReplaced : null,
            OutputsDiffer = RunningAsRoot,
            ExpectSuccess = RunningAsRoot,
            ExpectErrorCodes = RunningAsRoot ? string.Empty : "MSB3021", // access denied, no retries
            ExpectWarningCodes = string.Empty,
        };
        yield return new("read-only destination symbolic-linked to a package cache file", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["bin/pkg.dll"], Retries = 1 })
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Arrange = t => t.SymbolicLink("bin/pkg.dll", "cache/pkg.dll").ReadOnly("cache/pkg.dll"),
            DifferenceReplacesDestination = true,
            DifferingPaths = [@"bin/pkg\.dll", @"cache/pkg\.dll"],
            IntendedDifference = RunningAsRoot ? CacheKeptAndLinkReplaced : null,
            OutputsDiffer = RunningAsRoot,
            ExpectSuccess = RunningAsRoot,
            ExpectErrorCodes = RunningAsRoot ? string.Empty : "MSB3021,MSB3027", // access denied is retried on Unix from wave 18.7
            ExpectWarningCodes = RunningAsRoot ? string.Empty : "MSB3026",
        };
        yield return new("read-only destination symbolic-linked to a package cache file, with overwrite", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["bin/pkg.dll"], OverwriteReadOnlyFiles = true })
        {
            UnixOnly = true,
            UsesSymbolicLinks = true,
            Arrange = t => t.SymbolicLink("bin/pkg.dll", "cache/pkg.dll").ReadOnly("cache/pkg.dll"),
            ExpectSuccess = true,
        };

        // Names: too long for the filesystem (255 bytes per name on Linux, and past MAX_PATH segments on Windows).
        string longName = new string('n', 300) + ".txt";
        yield return new("destination name too long", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = [longName], Retries = 2 }) { ExpectSuccess = false };
        yield return new("destination folder name too long", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = new string('d', 300), Retries = 2 }) { ExpectSuccess = false };
        yield return new("missing source among several, with retries", new CopyParameters { SourceFiles = ["a.txt", "nope.txt", "b.txt"], DestinationFolder = "out", Retries = 3 }) { ExpectErrorCodes = "MSB3030" };
        yield return new("source is a directory, among files", new CopyParameters { SourceFiles = ["a.txt", "dir", "b.txt"], DestinationFolder = "out" }) { ExpectErrorCodes = "MSB3025" };
        yield return new("destination is an existing directory, with skip unchanged", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["dir"], SkipUnchangedFiles = true }) { ExpectErrorCodes = "MSB3024" };
    }

    /// <summary>Root writes through read-only modes (MSBuild's Copy then writes into the linked cache file).</summary>
    private static bool RunningAsRoot => !OperatingSystem.IsWindows() && CloneCopy.Platform.Unix.UnixLibC.GetEUid() == 0;

    private static void CacheKeptAndLinkReplaced(ScenarioTree t)
    {
        Assert.Equal(TestFiles.Content(4096, 13), File.ReadAllBytes(Path.Combine(t.Root, "cache", "pkg.dll")));
        Assert.Equal(TestFiles.Content(3000, 1), File.ReadAllBytes(Path.Combine(t.Root, "bin", "pkg.dll")));
    }

    /// <summary>Links and folders of files that are read-only, hidden or changed.</summary>
    private static IEnumerable<CopyScenario> LinksAndFolders()
    {
        yield return new("hard link to a read-only source", new CopyParameters { SourceFiles = ["ro-src.txt"], DestinationFolder = "out", UseHardlinksIfPossible = true })
        {
            Arrange = t => t.File("ro-src.txt", 700, 41).ReadOnly("ro-src.txt"),
            ExpectSuccess = true,
        };
        yield return new("hard link over a read-only destination with overwrite", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["ro.txt"], UseHardlinksIfPossible = true, OverwriteReadOnlyFiles = true })
        {
            Arrange = t => t.File("ro.txt", 10, 42).ReadOnly("ro.txt"),
            ExpectSuccess = true,
        };
        yield return new("hard link required and made, then the source changes", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", UseHardlinksIfPossible = true, ErrorIfLinkFails = true })
        {
            BetweenRuns = t => t.Change("a.txt", 3100, 43),
            SecondRun = new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", UseHardlinksIfPossible = true, ErrorIfLinkFails = true, SkipUnchangedFiles = true },
        };
        yield return new("symbolic link to a read-only source", new CopyParameters { SourceFiles = ["ro-src.txt"], DestinationFolder = "out", UseSymboliclinksIfPossible = true })
        {
            UsesSymbolicLinks = true,
            Arrange = t => t.File("ro-src.txt", 700, 44).ReadOnly("ro-src.txt"),
        };
        yield return new("symbolic link required where it cannot be made", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["dir/sub/a.txt"], UseSymboliclinksIfPossible = true, ErrorIfLinkFails = true })
        {
            UsesSymbolicLinks = true,
            Arrange = t => t.Directory("dir/sub/a.txt/x"),
        };
        yield return new("hard link across to an existing hard link of the source", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["a-link.txt"], UseHardlinksIfPossible = true })
        {
            Arrange = t => t.HardLink("a-link.txt", "a.txt"),
            ExpectSuccess = true,
        };
        yield return new("source folder with read-only and hidden files, twice", new CopyParameters { SourceFolders = ["mixed"], DestinationFolder = "out" })
        {
            Arrange = t =>
            {
                Make(t, "mixed/" + FileName("f", FileKind.ReadOnly), FileKind.ReadOnly, 400, 45);
                Make(t, "mixed/" + FileName("f", FileKind.Hidden), FileKind.Hidden, 410, 46);
                Make(t, "mixed/sub/" + FileName("f", FileKind.HiddenReadOnly), FileKind.HiddenReadOnly, 420, 47);
            },
            BetweenRuns = t => t.Change("mixed/" + FileName("f", FileKind.ReadOnly), 430, 48),
            SecondRun = new CopyParameters { SourceFolders = ["mixed"], DestinationFolder = "out", SkipUnchangedFiles = true },
        };
        yield return new("empty source folder", new CopyParameters { SourceFolders = ["empty-folder"], DestinationFolder = "out" })
        {
            Arrange = t => t.Directory("empty-folder"),
            ExpectSuccess = true,
        };
        yield return new("source folder into a folder with a read-only file in the way", new CopyParameters { SourceFolders = ["sf"], DestinationFolder = "out" })
        {
            Arrange = t => t.File("out/sf/x.txt", 10, 49).ReadOnly("out/sf/x.txt"),
        };
        yield return new("skip unchanged in a second build of a source folder", new CopyParameters { SourceFolders = ["sf"], DestinationFolder = "out", SkipUnchangedFiles = true })
        {
            BetweenRuns = t => t.Change("sf/sub/y.txt", 2150, 50),
            SecondRun = new CopyParameters { SourceFolders = ["sf"], DestinationFolder = "out", SkipUnchangedFiles = true },
        };
        yield return new("setuid, setgid and sticky bits", new CopyParameters { SourceFiles = ["special.sh"], DestinationFolder = "out" })
        {
            UnixOnly = true,
            Arrange = t => t.File("special.sh", 300, 51).Mode("special.sh", UnixFileMode.SetUser | UnixFileMode.SetGroup | UnixFileMode.StickyBit | UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute | UnixFileMode.GroupRead),
            ExpectSuccess = true,
        };
        yield return new("a writable file in a folder that may not be written", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["locked/o.txt"], Retries = 1 })
        {
            // MSBuild's delete fails quietly and its copy writes the file in place (for root the delete succeeds): a
            // replace that needs a new name in the folder (CloneCopyAtomicReplace) must end the same.
            UnixOnly = true,
            Arrange = t => t.File("locked/o.txt", 10, 53).Mode("locked", UnixFileMode.UserRead | UnixFileMode.UserExecute),
            ExpectSuccess = true,
        };
        yield return new("write-only destination", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["wo.txt"], Retries = 1 })
        {
            UnixOnly = true,
            Arrange = t => t.File("wo.txt", 10, 52).Mode("wo.txt", UnixFileMode.UserWrite),
        };
    }

    /// <summary>Retries and MSBuild's switches, in the shapes builds meet them.</summary>
    private static IEnumerable<CopyScenario> RetriesAndSwitches()
    {
        yield return new("read-only destination, retries exhausted", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["ro.txt"], Retries = 3 })
        {
            Arrange = t => t.File("ro.txt", 10, 61).ReadOnly("ro.txt"),
        };
        yield return new("read-only destination, no retries", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["ro.txt"], Retries = 0 })
        {
            Arrange = t => t.File("ro.txt", 10, 62).ReadOnly("ro.txt"),
        };
        yield return new("always retry on a read-only destination", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["ro.txt"], Retries = 2 })
        {
            Arrange = t => t.File("ro.txt", 10, 63).ReadOnly("ro.txt"),
            Environment = new Dictionary<string, string> { ["MSBUILDALWAYSRETRY"] = "1" },
        };
        yield return new("always retry when the destination folder is a file", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "b.txt", Retries = 2 })
        {
            Environment = new Dictionary<string, string> { ["MSBUILDALWAYSRETRY"] = "1" },
        };
        yield return new("always retry on a missing destination parent", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["b.txt/o.txt"], Retries = 1 })
        {
            Environment = new Dictionary<string, string> { ["MSBUILDALWAYSRETRY"] = "1" },
        };
        yield return new("overwrite read-only by environment, second build", new CopyParameters { SourceFiles = ["ro-src.txt"], DestinationFolder = "out" })
        {
            Arrange = t => t.File("ro-src.txt", 500, 64).ReadOnly("ro-src.txt"),
            Environment = new Dictionary<string, string> { ["MSBUILDALWAYSOVERWRITEREADONLYFILES"] = "1" },
            BetweenRuns = t => t.Change("ro-src.txt", 510, 65),
            SecondRun = new CopyParameters { SourceFiles = ["ro-src.txt"], DestinationFolder = "out", SkipUnchangedFiles = true },
        };
        yield return new("fail if not incremental after the source changed", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", SkipUnchangedFiles = true })
        {
            BetweenRuns = t => t.Change("a.txt", 3200, 66),
            SecondRun = new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", SkipUnchangedFiles = true, FailIfNotIncremental = true },
        };
        yield return new("duplicates and a failure in one call", new CopyParameters { SourceFiles = ["a.txt", "nope.txt", "a.txt", "b.txt"], DestinationFiles = ["o1.txt", "o2.txt", "o1.txt", "o1.txt"] });
        yield return new("many files with some read-only sources", new CopyParameters { SourceFiles = Enumerable.Range(0, 40).Select(i => $"many/f{i}.txt").ToArray(), DestinationFolder = "out/many" })
        {
            Arrange = t =>
            {
                for (int i = 0; i < 40; i++)
                {
                    t.File($"many/f{i}.txt", 200 + i * 13, 100 + i);
                    if (i % 3 == 0)
                    {
                        t.ReadOnly($"many/f{i}.txt");
                    }
                }
            },
            ExpectSuccess = true,
        };
    }
}
