using System;
using System.Collections.Generic;
using System.Linq;

namespace CloneCopy.Tests.Differential;

/// <summary>The differential suite's scenarios: every validation error, every per-file rule, the links, the escape hatches.</summary>
public static partial class CopyScenarios
{
    private static readonly DateTime OtherTime = new(2022, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    public static IReadOnlyList<CopyScenario> All { get; } = Build().ToList();

    /// <summary>The scenarios that mean something on the OS running the tests (Unix modes, Windows attributes).</summary>
    public static IReadOnlyList<CopyScenario> ForThisPlatform { get; } = All.Where(s => s.AppliesHere).ToList();

    /// <summary>
    /// The scenarios for this platform whose names match CLONECOPY_SCENARIOS (a regular expression), all when
    /// it is unset: an environment lane runs only the scenarios its variable changes, a developer one scenario.
    /// </summary>
    public static IReadOnlyList<CopyScenario> Selected { get; } =
        Environment.GetEnvironmentVariable("CLONECOPY_SCENARIOS") is { Length: > 0 } pattern
            ? ForThisPlatform.Where(s => System.Text.RegularExpressions.Regex.IsMatch(s.Name, pattern)).ToList()
            : ForThisPlatform;

    public static CopyScenario Named(string name) => All.Single(s => s.Name == name);

    private static IEnumerable<CopyScenario> Build() =>
        Basics().Concat(AttributeMatrix()).Concat(ErrorClasses()).Concat(LinksAndFolders()).Concat(RetriesAndSwitches()).Concat(Spellings()).Concat(RuleOrder())
            .Concat(SpecialSources()).Concat(Backslashes()).Concat(BlankSpecs()).Concat(Relinking())
            .Concat(MainAssembly());

    private static IEnumerable<CopyScenario> Basics()
    {
        // --- nothing to do, and validation, in MSBuild's order ---
        yield return new("no sources", new CopyParameters { DestinationFolder = "out" }) { ExpectSuccess = true, ExpectErrorCodes = "" };
        yield return new("no sources with invalid retries", new CopyParameters { SourceFiles = [], Retries = -1 }) { ExpectSuccess = true };
        yield return new("no destination", new CopyParameters { SourceFiles = ["a.txt"] }) { ExpectErrorCodes = "MSB3023" };
        yield return new("negative retries", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", Retries = -1, RetryDelayMilliseconds = -1 }) { ExpectErrorCodes = "MSB3028" };
        yield return new("negative retry delay", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", RetryDelayMilliseconds = -5 }) { ExpectErrorCodes = "MSB3029" };
        yield return new("both destinations", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["o.txt"], DestinationFolder = "out" }) { ExpectErrorCodes = "MSB3022" };
        yield return new("source folders with destination files", new CopyParameters { SourceFolders = ["sf"], DestinationFiles = ["o.txt"] }) { ExpectErrorCodes = "MSB3896" };
        yield return new("count mismatch", new CopyParameters { SourceFiles = ["a.txt", "b.txt"], DestinationFiles = ["o.txt"] }) { ExpectErrorCodes = "MSB3094" };
        yield return new("error if link fails without a link", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["o.txt"], ErrorIfLinkFails = true }) { ExpectErrorCodes = "MSB3892" };

        // --- ordinary copies ---
        yield return new("one file to destination files", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["copy.txt"] }) { ExpectSuccess = true, ExpectErrorCodes = "" };
        yield return new("several files to a new nested folder", new CopyParameters { SourceFiles = ["a.txt", "b.txt", "big.bin", "exec.sh", "private.txt"], DestinationFolder = "out/deep/er" }) { ExpectSuccess = true };
        yield return new("to an existing folder", new CopyParameters { SourceFiles = ["a.txt", "b.txt"], DestinationFolder = "dir" }) { ExpectSuccess = true };
        yield return new("destination files in new nested directories", new CopyParameters { SourceFiles = ["a.txt", "b.txt"], DestinationFiles = ["n1/n2/a.txt", "m1/b.txt"] }) { ExpectSuccess = true };
        yield return new("empty file", new CopyParameters { SourceFiles = ["empty.txt"], DestinationFolder = "out" }) { ExpectSuccess = true };
        yield return new("modes are kept", new CopyParameters { SourceFiles = ["exec.sh", "private.txt"], DestinationFolder = "out" }) { ExpectSuccess = true, UnixOnly = true };
        yield return new("special characters in names", new CopyParameters { SourceFiles = ["odd%2541%3b%24%40name.txt", "spaced name é.txt"], DestinationFolder = "out" }) { ExpectSuccess = true };
        yield return new("overwrite a different destination", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["b.txt"] }) { ExpectSuccess = true };
        yield return new("source is a symbolic link", new CopyParameters { SourceFiles = ["link-to-a.txt"], DestinationFolder = "out" })
        { UsesSymbolicLinks = true, Arrange = t => t.SymbolicLink("link-to-a.txt", "a.txt"), ExpectSuccess = true };
        yield return new("many files in parallel", new CopyParameters { SourceFiles = Enumerable.Range(0, 120).Select(i => $"many/f{i}.txt").ToArray(), DestinationFolder = "out/many" })
        {
            Arrange = t =>
            {
                for (int i = 0; i < 120; i++)
                {
                    t.File($"many/f{i}.txt", 100 + i * 37, 100 + i);
                }
            },
            ExpectSuccess = true,
        };
        yield return new("single threaded by environment", new CopyParameters { SourceFiles = ["a.txt", "b.txt", "big.bin"], DestinationFolder = "out" })
        { Environment = new Dictionary<string, string> { ["MSBUILDCOPYTASKPARALLELISM"] = "1" }, ExpectSuccess = true };

        // --- per-file failures ---
        yield return new("missing source among others", new CopyParameters { SourceFiles = ["nope.txt", "a.txt"], DestinationFolder = "out" }) { ExpectErrorCodes = "MSB3030" };
        yield return new("missing source with skip unchanged", new CopyParameters { SourceFiles = ["nope.txt"], DestinationFiles = ["o.txt"], SkipUnchangedFiles = true }) { ExpectErrorCodes = "MSB3030" };
        yield return new("source is a directory", new CopyParameters { SourceFiles = ["dir"], DestinationFiles = ["o.txt"] }) { ExpectErrorCodes = "MSB3025" };
        yield return new("destination is a directory", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["dir"] }) { ExpectErrorCodes = "MSB3024" };
        yield return new("empty source item", new CopyParameters { SourceFiles = [""], DestinationFolder = "out" }) { ExpectErrorCodes = "MSB3021" };
        yield return new("destination parent is a file, with retries", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["b.txt/o.txt"], Retries = 2 })
        { ExpectErrorCodes = "MSB3021,MSB3027", ExpectWarningCodes = "MSB3026,MSB3026" };
        yield return new("destination parent is a file, no retries", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["b.txt/o.txt"], Retries = 0 }) { ExpectErrorCodes = "MSB3021", ExpectWarningCodes = "" };
        yield return new("destination folder is a file", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "b.txt", Retries = 3 }) { ExpectErrorCodes = "MSB3021", ExpectWarningCodes = "" };

        // --- same file ---
        yield return new("copy onto itself", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["a.txt"] }) { ExpectSuccess = true };
        yield return new("copy onto itself by another spelling", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["./dir/../a.txt"] }) { ExpectSuccess = true };
        yield return new("destination differs only in case", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["A.txt"] }) { ExpectSuccess = true };
        yield return new("copy onto a hard link of itself", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["a-link.txt"] })
        { Arrange = t => t.HardLink("a-link.txt", "a.txt"), ExpectSuccess = true };
        // The same inode and the same name, but another folder: a hard link, not the source by another path, so it is
        // replaced by a copy of its own (only 4 of 150 generated seeds met this).
        yield return new("destination is a hard link of the source by the same name in another folder", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out" })
        { UnixOnly = true, Arrange = t => t.HardLink("out/a.txt", "a.txt"), ExpectSuccess = true, ExpectErrorCodes = "" }; // UnixFileIdentity's rule; not yet run under Wine

        // --- duplicates ---
        yield return new("same pair twice", new CopyParameters { SourceFiles = ["a.txt", "a.txt"], DestinationFiles = ["o.txt", "o.txt"] }) { ExpectSuccess = true };
        yield return new("two sources for one destination", new CopyParameters { SourceFiles = ["a.txt", "a.txt", "b.txt"], DestinationFiles = ["o.txt", "o.txt", "o.txt"] }) { ExpectSuccess = true };
        yield return new("duplicate source names into one folder", new CopyParameters { SourceFiles = ["a.txt", "sf/x.txt", "b.txt"], DestinationFolder = "out" })
        { Arrange = t => t.File("sf/a.txt", 333, 77), ExpectSuccess = true };

        // --- source folders ---
        yield return new("source folder", new CopyParameters { SourceFolders = ["sf"], DestinationFolder = "out" }) { ExpectSuccess = true };
        yield return new("source folder with trailing slash", new CopyParameters { SourceFolders = ["sf/"], DestinationFolder = "out" }) { ExpectSuccess = true };
        yield return new("source folder and files", new CopyParameters { SourceFiles = ["a.txt"], SourceFolders = ["sf", "cache"], DestinationFolder = "out" }) { ExpectSuccess = true };
        yield return new("missing source folder", new CopyParameters { SourceFolders = ["nosuch"], DestinationFolder = "out" }) { ExpectSuccess = true };

        // --- links ---
        yield return new("hard links", new CopyParameters { SourceFiles = ["a.txt", "b.txt"], DestinationFolder = "out", UseHardlinksIfPossible = true }) { ExpectSuccess = true };
        yield return new("symbolic links", new CopyParameters { SourceFiles = ["a.txt", "b.txt"], DestinationFolder = "out", UseSymboliclinksIfPossible = true }) { ExpectSuccess = true };
        yield return new("hard and symbolic links", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", UseHardlinksIfPossible = true, UseSymboliclinksIfPossible = true }) { ExpectSuccess = true };
        yield return new("error if link fails when the link works", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", UseHardlinksIfPossible = true, ErrorIfLinkFails = true }) { ExpectSuccess = true };
        yield return new("hard link over an existing destination", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["b.txt"], UseHardlinksIfPossible = true }) { ExpectSuccess = true };
        // Under MSBUILDCOPYWITHOUTDELETE=1 the destination is kept, so link() fails on it: MSBuild's Copy then says it
        // tries a symbolic link, which fails too, and copies.
        yield return new("hard link or else a symbolic link over an existing destination", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["b.txt"], UseHardlinksIfPossible = true, UseSymboliclinksIfPossible = true })
        { UnixOnly = true, UsesSymbolicLinks = true, ExpectSuccess = true }; // the rule is met on Linux; not yet run under Wine
        yield return new("symbolic links by environment", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out" })
        { Environment = new Dictionary<string, string> { ["MSBuildUseSymboliclinksIfPossible"] = "true" }, ExpectSuccess = true };

        // --- incrementality ---
        yield return new("skip unchanged when up to date", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["up.txt"], SkipUnchangedFiles = true })
        { Arrange = t => t.UpToDateCopy("a.txt", "up.txt"), ExpectSuccess = true };
        yield return new("skip unchanged with a different size", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["b.txt"], SkipUnchangedFiles = true })
        { Arrange = t => t.Touch("b.txt", new DateTime(2021, 3, 4, 5, 6, 8, DateTimeKind.Utc)), ExpectSuccess = true };
        yield return new("skip unchanged with a different timestamp", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["up.txt"], SkipUnchangedFiles = true })
        { Arrange = t => t.UpToDateCopy("a.txt", "up.txt").Touch("up.txt", OtherTime), ExpectSuccess = true };
        yield return new("fail if not incremental with work to do", new CopyParameters { SourceFiles = ["a.txt"], DestinationFolder = "out", FailIfNotIncremental = true }) { ExpectErrorCodes = "(none)" };
        yield return new("fail if not incremental when up to date", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["up.txt"], SkipUnchangedFiles = true, FailIfNotIncremental = true })
        { Arrange = t => t.UpToDateCopy("a.txt", "up.txt"), ExpectSuccess = true };

        // --- read-only destinations and links in the way ---
        yield return new("read-only destination", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["ro.txt"] })
        { Arrange = t => t.File("ro.txt", 10, 50).ReadOnly("ro.txt") };
        yield return new("read-only destination with overwrite", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["ro.txt"], OverwriteReadOnlyFiles = true })
        { Arrange = t => t.File("ro.txt", 10, 50).ReadOnly("ro.txt"), ExpectSuccess = true };
        yield return new("read-only destination overwritten by environment", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["ro.txt"] })
        { Arrange = t => t.File("ro.txt", 10, 50).ReadOnly("ro.txt"), Environment = new Dictionary<string, string> { ["MSBUILDALWAYSOVERWRITEREADONLYFILES"] = "1" } };
        yield return new("destination hard-linked to a package cache file", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["bin/pkg.dll"] })
        { Arrange = t => t.HardLink("bin/pkg.dll", "cache/pkg.dll"), ExpectSuccess = true };
        yield return new("source is a dangling symbolic link", new CopyParameters { SourceFiles = ["dangling.txt"], DestinationFolder = "out", Retries = 1 })
        { UsesSymbolicLinks = true, Arrange = t => t.SymbolicLink("dangling.txt", "gone.txt") };
        yield return new("destination is a dangling symbolic link", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["bin/dangling.dll"] })
        { UsesSymbolicLinks = true, Arrange = t => t.SymbolicLink("bin/dangling.dll", "cache/gone.dll"), ExpectSuccess = true };
        yield return new("destination is a symbolic link to a directory", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["dirlink"] })
        { UsesSymbolicLinks = true, Arrange = t => t.SymbolicLink("dirlink", "dir"), ExpectErrorCodes = "MSB3024" };
        yield return new("destination is a symbolic link to the source", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["link-to-a.txt"] })
        { UsesSymbolicLinks = true, Arrange = t => t.SymbolicLink("link-to-a.txt", "a.txt"), ExpectSuccess = true };
        yield return new("destination is a symbolic link to another file", new CopyParameters { SourceFiles = ["a.txt"], DestinationFiles = ["bin/pkg.dll"] })
        { UsesSymbolicLinks = true, Arrange = t => t.SymbolicLink("bin/pkg.dll", "cache/pkg.dll"), ExpectSuccess = true };
    }
}
