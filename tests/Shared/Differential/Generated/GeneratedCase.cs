using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Differential.Generated;

/// <summary>What one entry of a generated tree is.</summary>
public enum EntryKind
{
    File,
    ReadOnlyFile,

    /// <summary>A file nobody but root may read (Unix only).</summary>
    UnreadableFile,
    Directory,

    /// <summary>A directory nobody but root may list (Unix only); made after what it contains.</summary>
    UnreadableDirectory,
    HardLink,
    SymbolicLink,
    DanglingLink,

    /// <summary>A named pipe (Linux only): size 0, and each task's own writer gives it 14 bytes while the task runs.</summary>
    FedPipe,
}

/// <summary>One entry of a generated tree; <see cref="Target"/> for links, relative to the tree.</summary>
public sealed record TreeEntry(EntryKind Kind, string Path, int Length = 0, int Seed = 0, string? Target = null)
{
    public override string ToString() => Target is null ? $"{Kind} {Path} ({Length} B)" : $"{Kind} {Path} -> {Target}";
}

/// <summary>
/// One generated case: a tree (entries made in order) and one Copy invocation, with the seed that made it.
/// It can say what it is, become a scenario of the differential suite, and offer smaller versions of itself.
/// </summary>
public sealed record GeneratedCase(int Seed, IReadOnlyList<TreeEntry> Entries, CopyParameters Parameters)
{
    public CopyScenario ToScenario() => new($"generated case {Seed}", Parameters)
    {
        StartsEmpty = true,
        Arrange = Build,
        UsesSymbolicLinks = Entries.Any(e => e.Kind is EntryKind.SymbolicLink or EntryKind.DanglingLink),
        WhileCopying = FeedPipes,
    };

    /// <summary>A fresh writer for each pipe of the tree, for as long as one task runs (null: no pipes).</summary>
    private IDisposable FeedPipes(ScenarioTree tree)
    {
        var writers = Entries.Where(e => e.Kind == EntryKind.FedPipe)
            .Select(e => SpecialSources.Feed(System.IO.Path.Combine(tree.Root, e.Path))).ToList();
        return new Writers(writers);
    }

    private sealed class Writers(List<IDisposable> writers) : IDisposable
    {
        public void Dispose() => writers.ForEach(w => w.Dispose());
    }

    /// <summary>Makes the tree: files first, then links to them, then the modes that shut entries away.</summary>
    public void Build(ScenarioTree tree)
    {
        if (Parameters.SourceFiles?.Contains(SpecialSources.ProcFile) == true)
        {
            SpecialSources.PinProcFile();
        }

        foreach (TreeEntry entry in Entries.OrderBy(Phase))
        {
            string path = System.IO.Path.Combine(tree.Root, entry.Path);
            switch (entry.Kind)
            {
                case EntryKind.File or EntryKind.ReadOnlyFile or EntryKind.UnreadableFile:
                    tree.File(entry.Path, entry.Length, entry.Seed);
                    if (entry.Kind == EntryKind.ReadOnlyFile)
                    {
                        tree.ReadOnly(entry.Path);
                    }
                    else if (entry.Kind == EntryKind.UnreadableFile)
                    {
                        tree.Mode(entry.Path, UnixFileMode.None);
                    }

                    break;
                case EntryKind.Directory:
                    tree.Directory(entry.Path);
                    break;
                case EntryKind.FedPipe:
                    SpecialSources.MakePipe(path);
                    break;
                case EntryKind.UnreadableDirectory:
                    tree.Directory(entry.Path);
                    break;
                case EntryKind.HardLink:
                    if (File.Exists(System.IO.Path.Combine(tree.Root, entry.Target!)))
                    {
                        tree.HardLink(entry.Path, entry.Target!);
                    }

                    break;
                case EntryKind.SymbolicLink or EntryKind.DanglingLink:
                    if (!File.Exists(path) && !System.IO.Directory.Exists(path))
                    {
                        tree.SymbolicLink(entry.Path, entry.Target!);
                    }

                    break;
            }
        }

        // Shut directories last, deepest first, so what they hold was made.
        foreach (TreeEntry entry in Entries.Where(e => e.Kind == EntryKind.UnreadableDirectory).OrderByDescending(e => e.Path.Length))
        {
            tree.Mode(entry.Path, UnixFileMode.None);
        }
    }

    private static int Phase(TreeEntry entry) => entry.Kind switch
    {
        EntryKind.Directory or EntryKind.UnreadableDirectory => 0,
        EntryKind.File or EntryKind.ReadOnlyFile or EntryKind.UnreadableFile or EntryKind.FedPipe => 1,
        _ => 2,
    };

    public string Describe()
    {
        var p = Parameters;
        var lines = new List<string> { $"seed {Seed}:" };
        lines.AddRange(Entries.Select(e => "  " + e));
        lines.Add($"  SourceFiles={Show(p.SourceFiles)} SourceFolders={Show(p.SourceFolders)} DestinationFolder={p.DestinationFolder ?? "-"} DestinationFiles={Show(p.DestinationFiles)}");
        lines.Add($"  Retries={p.Retries} SkipUnchangedFiles={p.SkipUnchangedFiles} OverwriteReadOnlyFiles={p.OverwriteReadOnlyFiles} UseHardlinksIfPossible={p.UseHardlinksIfPossible} UseSymboliclinksIfPossible={p.UseSymboliclinksIfPossible} ErrorIfLinkFails={p.ErrorIfLinkFails}");
        return string.Join(Environment.NewLine, lines);
    }

    private static string Show(string[]? items) => items is null ? "-" : "[" + string.Join(", ", items.Select(i => $"\"{i}\"")) + "]";

    /// <summary>Smaller cases, most shrinking first: fewer entries, fewer items, fewer switches.</summary>
    public IEnumerable<GeneratedCase> Smaller()
    {
        for (int i = 0; i < Entries.Count; i++)
        {
            yield return this with { Entries = Entries.Where((_, j) => j != i).ToList() };
        }

        string[]? sources = Parameters.SourceFiles;
        for (int i = 0; sources is not null && i < sources.Length; i++)
        {
            int skip = i;
            var fewer = CopyOfParameters();
            fewer.SourceFiles = sources.Where((_, j) => j != skip).ToArray();
            if (Parameters.DestinationFiles is string[] destinations)
            {
                fewer.DestinationFiles = destinations.Where((_, j) => j != skip).ToArray();
            }

            yield return this with { Parameters = fewer };
        }

        string[]? folders = Parameters.SourceFolders;
        for (int i = 0; folders is not null && i < folders.Length; i++)
        {
            int skip = i;
            var fewer = CopyOfParameters();
            fewer.SourceFolders = folders.Where((_, j) => j != skip).ToArray();
            yield return this with { Parameters = fewer };
        }

        foreach (Action<CopyParameters> simplify in Simplifications())
        {
            var simpler = CopyOfParameters();
            simplify(simpler);
            yield return this with { Parameters = simpler };
        }
    }

    private IEnumerable<Action<CopyParameters>> Simplifications()
    {
        if (Parameters.SkipUnchangedFiles)
        {
            yield return p => p.SkipUnchangedFiles = false;
        }

        if (Parameters.OverwriteReadOnlyFiles)
        {
            yield return p => p.OverwriteReadOnlyFiles = false;
        }

        if (Parameters.UseHardlinksIfPossible && !Parameters.ErrorIfLinkFails)
        {
            yield return p => p.UseHardlinksIfPossible = false;
        }

        if (Parameters.UseSymboliclinksIfPossible && !Parameters.ErrorIfLinkFails)
        {
            yield return p => p.UseSymboliclinksIfPossible = false;
        }

        if (Parameters.ErrorIfLinkFails)
        {
            yield return p => p.ErrorIfLinkFails = false;
        }

        if (Parameters.Retries is > 0)
        {
            yield return p => p.Retries = 0;
        }
    }

    private CopyParameters CopyOfParameters() => new()
    {
        SourceFiles = Parameters.SourceFiles?.ToArray(),
        SourceFolders = Parameters.SourceFolders?.ToArray(),
        DestinationFolder = Parameters.DestinationFolder,
        DestinationFiles = Parameters.DestinationFiles?.ToArray(),
        Retries = Parameters.Retries,
        RetryDelayMilliseconds = Parameters.RetryDelayMilliseconds,
        UseHardlinksIfPossible = Parameters.UseHardlinksIfPossible,
        UseSymboliclinksIfPossible = Parameters.UseSymboliclinksIfPossible,
        ErrorIfLinkFails = Parameters.ErrorIfLinkFails,
        SkipUnchangedFiles = Parameters.SkipUnchangedFiles,
        OverwriteReadOnlyFiles = Parameters.OverwriteReadOnlyFiles,
        FailIfNotIncremental = Parameters.FailIfNotIncremental,
    };
}
