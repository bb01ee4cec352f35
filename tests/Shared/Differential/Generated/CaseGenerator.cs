using System;
using System.Collections.Generic;
using System.Linq;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Differential.Generated;

/// <summary>
/// Makes a random but repeatable Copy case from a seed: a small tree under "g" (files with awkward names,
/// read-only and unreadable entries, hard and symbolic links, a link back to an ancestor, a dangling link),
/// destinations already in place under "out" (files, up-to-date copies, read-only files, directories,
/// links), and one invocation (SourceFiles spelled in several ways, duplicates, missing files, SourceFolders,
/// DestinationFolder or DestinationFiles, links, SkipUnchangedFiles, OverwriteReadOnlyFiles, retries).
/// Two shapes are never generated, because CloneCopy differs from MSBuild's Copy there on purpose (see
/// docs/fidelity.md): a read-only destination that is itself a link, and a destination that is a source by
/// another path. Sources live under "g" and "keep", destinations under "out", so no pair's destination is
/// another pair's source, and no destination file is spelled two ways (MSBuild's threads would race on it).
/// </summary>
public static class CaseGenerator
{
    private static readonly bool OnWindows = OperatingSystem.IsWindows();

    /// <summary>How the filesystem tells names apart: Windows and macOS (APFS as formatted by default) ignore case.</summary>
    private static readonly StringComparison NameComparison = OnWindows || OperatingSystem.IsMacOS() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;

    private static readonly string[] Names =
    [
        "a.txt", "b c.txt", "é ü ß.txt", "pct%41.txt", "-dash.txt", "Case.txt", "case.TXT", "semi;colon.txt", "plain", "dollar$@.bin", "x.y.z",
    ];

    private static readonly string[] Folders = ["g", "g/d1", "g/d1/d2", "g/e f"];

    public static GeneratedCase Make(int seed)
    {
        var random = new Random(seed);
        bool links = random.Next(100) < 30;
        bool useHardLinks = links && random.Next(2) == 0;
        bool useSymbolicLinks = links && !OnWindows && (!useHardLinks || random.Next(2) == 0);

        var entries = new List<TreeEntry>();
        foreach (string folder in Folders)
        {
            entries.Add(new TreeEntry(EntryKind.Directory, folder));
        }

        entries.Add(new TreeEntry(EntryKind.File, "keep/k.txt", 77, 9000));
        var files = new List<string>();
        int fileCount = random.Next(2, 8);
        for (int i = 0; i < fileCount; i++)
        {
            string folder = Pick(random, Folders);
            string path = $"{folder}/{Pick(random, Names)}";
            if (entries.Any(e => string.Equals(e.Path, path, NameComparison)))
            {
                continue;
            }

            // Shut-away and read-only sources would be read-only links when linked: an intended difference.
            EntryKind kind = links ? EntryKind.File : random.Next(100) switch
            {
                < 15 => EntryKind.ReadOnlyFile,
                < 22 when !OnWindows => EntryKind.UnreadableFile,
                _ => EntryKind.File,
            };
            entries.Add(new TreeEntry(kind, path, random.Next(0, 5000), seed * 31 + i));
            files.Add(path);
        }

        if (files.Count > 0 && random.Next(100) < 30)
        {
            entries.Add(new TreeEntry(EntryKind.HardLink, "g/d1/hard link.txt", Target: Pick(random, files)));
            files.Add("g/d1/hard link.txt");
        }

        if (!OnWindows)
        {
            if (files.Count > 0 && random.Next(100) < 30)
            {
                entries.Add(new TreeEntry(EntryKind.SymbolicLink, "g/sym.txt", Target: Pick(random, files)));
                files.Add("g/sym.txt");
            }

            if (random.Next(100) < 15)
            {
                entries.Add(new TreeEntry(EntryKind.DanglingLink, "g/d1/dangling.txt", Target: "g/gone.txt"));
                files.Add("g/d1/dangling.txt");
            }

            if (random.Next(100) < 25)
            {
                entries.Add(new TreeEntry(EntryKind.SymbolicLink, "g/d1/d2/up", Target: Pick(random, ["g", "g/d1"])));
            }

            if (random.Next(100) < 15)
            {
                entries.Add(new TreeEntry(EntryKind.UnreadableDirectory, "g/d1/closed"));
                entries.Add(new TreeEntry(EntryKind.File, "g/d1/closed/inside.txt", 321, seed + 7));
            }
        }

        var parameters = new CopyParameters
        {
            Retries = random.Next(0, 3),
            RetryDelayMilliseconds = 0,
            SkipUnchangedFiles = random.Next(100) < 40,
            OverwriteReadOnlyFiles = random.Next(100) < 30,
            UseHardlinksIfPossible = useHardLinks,
            UseSymboliclinksIfPossible = useSymbolicLinks,
            ErrorIfLinkFails = links && random.Next(100) < 30,
        };

        // Decided first: a source with a trailing separator has no file name, so into a DestinationFolder it
        // would be copied onto the folder itself, which the call's other pairs are creating (a race).
        bool toFolder = random.Next(100) < 55;
        var sources = new List<string>();
        int sourceCount = random.Next(0, 5);
        for (int i = 0; i < sourceCount; i++)
        {
            int roll = random.Next(100);
            string path = roll switch
            {
                < 6 => "g/nope.txt",
                < 9 => "g/d1",
                _ when files.Count == 0 => "g/nope.txt",
                _ => Pick(random, files),
            };
            sources.Add(Spell(random, path, trailingSeparator: !toFolder));
            if (random.Next(100) < 20)
            {
                sources.Add(random.Next(2) == 0 ? sources[^1] : Spell(random, path, trailingSeparator: !toFolder));
            }
        }

        AddSpecialSources(seed, entries, sources, links);
        toFolder |= sources.Count == 0;
        if (toFolder)
        {
            parameters.DestinationFolder = Pick(random, ["out", "out/sub", "./out", "out/", "out//deep"]);
            if (sources.Count == 0 || random.Next(100) < 35)
            {
                parameters.SourceFolders = Enumerable.Range(0, random.Next(1, 3))
                    .Select(_ => Pick(random, ["g", "g/d1", "g/.", "g/d1/..", "g/d1/", "./g/d1/d2", "g/nosuch", "g//d1"])).ToArray();
            }
        }
        else
        {
            // One spelling per destination file: two spellings of one destination are two destinations to
            // MSBuild's parallel loop, whose threads then race on the file.
            var destinations = new List<string>();
            var spellings = new Dictionary<string, string>(NameComparison == StringComparison.OrdinalIgnoreCase ? StringComparer.OrdinalIgnoreCase : StringComparer.Ordinal);
            foreach (string _ in sources)
            {
                string path = "out/" + Pick(random, Names);
                if (!spellings.TryGetValue(path, out string? spelled))
                {
                    spelled = Spell(random, path);
                    spellings.Add(path, spelled);
                }

                destinations.Add(destinations.Count > 0 && random.Next(100) < 25 ? destinations[^1] : spelled);
            }

            parameters.DestinationFiles = destinations.ToArray();
        }

        parameters.SourceFiles = sources.Count == 0 && parameters.SourceFolders is not null ? null : sources.ToArray();
        AddExistingDestinations(random, entries, parameters, links);
        return new GeneratedCase(seed, entries, parameters);
    }

    /// <summary>
    /// On Linux, sources whose size (0) does not say what they hold: a named pipe fed by a writer,
    /// a /proc file. Drawn from a second random stream, so the cases of earlier seeds stay as they were. The
    /// pipe lives under "p" (no SourceFolders reach it) and is named once: a second open would find no writer.
    /// A /proc file may be named twice, as any regular file; not when links are asked for: it is read-only, and
    /// a second pair would meet a link to a read-only file as its destination (a shape left out above).
    /// </summary>
    private static void AddSpecialSources(int seed, List<TreeEntry> entries, List<string> sources, bool links)
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        var random = new Random(unchecked(seed * 7919 + 25));
        if (random.Next(100) < 20)
        {
            entries.Add(new TreeEntry(EntryKind.FedPipe, "p/pipe"));
            sources.Insert(random.Next(sources.Count + 1), "p/pipe");
        }

        for (int copies = random.Next(100) < 20 && !links ? random.Next(1, 3) : 0; copies > 0; copies--)
        {
            sources.Insert(random.Next(sources.Count + 1), SpecialSources.ProcFile);
        }
    }

    /// <summary>Puts something where some destinations will be written: every kind a build meets.</summary>
    private static void AddExistingDestinations(Random random, List<TreeEntry> entries, CopyParameters parameters, bool links)
    {
        var targets = new List<string>();
        if (parameters.DestinationFiles is string[] destinations)
        {
            targets.AddRange(destinations.Select(Unescape));
        }
        else if (parameters.SourceFiles is string[] sources)
        {
            targets.AddRange(sources.Select(s => System.IO.Path.Combine(parameters.DestinationFolder!, System.IO.Path.GetFileName(Unescape(s)))));
        }

        foreach (string target in targets.Distinct().Where(t => random.Next(100) < 35).Take(3))
        {
            if (target.EndsWith('/') || target.EndsWith('\\'))
            {
                continue;
            }

            string root = OnWindows ? @"C:\r" : "/r";
            string path = System.IO.Path.GetRelativePath(root, System.IO.Path.GetFullPath(System.IO.Path.Combine(root, target))).Replace('\\', '/');
            if (path.StartsWith("..", StringComparison.Ordinal) || entries.Any(e => string.Equals(e.Path, path, NameComparison)))
            {
                continue;
            }

            int roll = random.Next(100);
            entries.Add(roll switch
            {
                < 30 => new TreeEntry(EntryKind.File, path, random.Next(0, 3000), random.Next(1000)),
                < 45 when !links => new TreeEntry(EntryKind.ReadOnlyFile, path, random.Next(0, 3000), random.Next(1000)),
                < 58 => new TreeEntry(EntryKind.Directory, path),
                < 72 => new TreeEntry(EntryKind.HardLink, path, Target: "keep/k.txt"),
                < 85 when !OnWindows => new TreeEntry(EntryKind.SymbolicLink, path, Target: "keep/k.txt"),
                < 93 when !OnWindows => new TreeEntry(EntryKind.DanglingLink, path, Target: "keep/gone.txt"),
                _ => new TreeEntry(EntryKind.File, path, 77, 9000), // k.txt's twin: the same size and time
            });
        }
    }

    /// <summary>One of the ways a project spells a path: as is, through "." or "..", doubled or trailing separators, backslashes on Windows; always escaped as an item spec.</summary>
    private static string Spell(Random random, string path, bool trailingSeparator = true)
    {
        string spelled = random.Next(100) switch
        {
            < 50 => path,
            < 60 => "./" + path,
            < 68 when path.StartsWith("g/", StringComparison.Ordinal) => string.Concat("g/d1/../", path.AsSpan(2)),
            < 76 when path.Contains('/') => ReplaceFirst(path, "/", "/./"),
            < 84 when path.Contains('/') => ReplaceFirst(path, "/", "//"),
            < 87 when trailingSeparator => path + "/",
            _ => path,
        };
        if (OnWindows && random.Next(100) < 30)
        {
            spelled = spelled.Replace('/', '\\');
        }

        // "%41" left as is names "A" to MSBuild; escaped, it names the file "pct%41.txt".
        return random.Next(100) < 10 ? spelled : Escape(spelled);
    }

    private static string ReplaceFirst(string text, string what, string with)
    {
        int at = text.IndexOf(what, StringComparison.Ordinal);
        return string.Concat(text.AsSpan(0, at), with, text.AsSpan(at + what.Length));
    }

    private static string Escape(string spec) =>
        spec.Replace("%", "%25").Replace(";", "%3b").Replace("$", "%24").Replace("@", "%40").Replace("'", "%27");

    private static string Unescape(string spec) => new Microsoft.Build.Utilities.TaskItem(spec).ItemSpec;

    private static T Pick<T>(Random random, IReadOnlyList<T> items) => items[random.Next(items.Count)];
}
