using System;
using System.IO;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// Builds the same starting tree for both tasks: fixed contents, modes and timestamps, so that the two
/// trees can be compared entry by entry after the copies.
/// </summary>
public sealed class ScenarioTree
{
    public ScenarioTree(string root) => Root = root;

    public string Root { get; }

    public static ScenarioTree CreateStandard(string root)
    {
        var tree = new ScenarioTree(root);
        tree.File("a.txt", 3000, 1)
            .File("b.txt", 5000, 2)
            .File("big.bin", 1024 * 1024, 3)
            .File("empty.txt", 0, 4)
            .File("exec.sh", 700, 5, (UnixFileMode)0b111_101_101)
            .File("private.txt", 900, 6, (UnixFileMode)0b110_000_000)
            .File("odd%41;$@name.txt", 100, 7)
            .File("spaced name é.txt", 120, 8)
            .File("sf/x.txt", 2000, 9)
            .File("sf/sub/y.txt", 2100, 10)
            .File("sf/sub/deeper/z.txt", 2200, 11)
            .File("sf/other/w.txt", 2300, 12)
            .File("cache/pkg.dll", 4096, 13)
            .Directory("dir");
        return tree;
    }

    /// <summary>A tree with nothing in it yet (the generator builds its own).</summary>
    public static ScenarioTree CreateEmpty(string root)
    {
        System.IO.Directory.CreateDirectory(root);
        return new ScenarioTree(root);
    }

    public ScenarioTree File(string relative, int length, int seed, UnixFileMode? mode = null)
    {
        TestFiles.Write(Path.Combine(Root, relative), length, seed, mode);
        return this;
    }

    public ScenarioTree Directory(string relative)
    {
        System.IO.Directory.CreateDirectory(Path.Combine(Root, relative));
        return this;
    }

    public ScenarioTree HardLink(string relative, string existing)
    {
        string path = Path.Combine(Root, relative);
        System.IO.Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        FileSystemOps.HardLink(path, Path.Combine(Root, existing));
        return this;
    }

    public ScenarioTree SymbolicLink(string relative, string target)
    {
        string path = Path.Combine(Root, relative);
        System.IO.Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        System.IO.File.CreateSymbolicLink(path, Path.Combine(Root, target));
        return this;
    }

    /// <summary>Hidden: the Hidden attribute on Windows; on Unix a name starting with a dot is what hides a file.</summary>
    public ScenarioTree Hidden(string relative)
    {
        string path = Path.Combine(Root, relative);
        System.IO.File.SetAttributes(path, System.IO.File.GetAttributes(path) | FileAttributes.Hidden);
        return this;
    }

    public ScenarioTree ReadOnly(string relative)
    {
        string path = Path.Combine(Root, relative);
        System.IO.File.SetAttributes(path, System.IO.File.GetAttributes(path) | FileAttributes.ReadOnly);
        return this;
    }

    /// <summary>
    /// A name that is hidden on this OS: Windows hides by attribute (set with <see cref="Hidden"/>), Unix by a
    /// leading dot.
    /// </summary>
    public static string HiddenName(string name) => OperatingSystem.IsWindows() ? name : "." + name;

    /// <summary>Edits a file as a later build would find it: new content and a newer timestamp, its attributes kept.</summary>
    public ScenarioTree Change(string relative, int length, int seed)
    {
        string path = Path.Combine(Root, relative);
        FileAttributes attributes = System.IO.File.GetAttributes(path);
        System.IO.File.SetAttributes(path, attributes & ~FileAttributes.ReadOnly);
        System.IO.File.WriteAllBytes(path, TestFiles.Content(length, seed));
        System.IO.File.SetLastWriteTimeUtc(path, new DateTime(2023, 5, 6, 7, 8, 9, DateTimeKind.Utc).AddSeconds(seed));
        System.IO.File.SetAttributes(path, attributes);
        return this;
    }

    /// <summary>Unix permissions (on Windows, nothing: it has no such bits).</summary>
    public ScenarioTree Mode(string relative, UnixFileMode mode)
    {
        if (!OperatingSystem.IsWindows())
        {
            System.IO.File.SetUnixFileMode(Path.Combine(Root, relative), mode);
        }

        return this;
    }

    /// <summary>Opens a file without sharing until disposed: another process's build step holding it.</summary>
    public IDisposable HoldWithoutSharing(string relative) =>
        new FileStream(Path.Combine(Root, relative), FileMode.Open, FileAccess.Read, FileShare.None);

    /// <summary>Fills the tree's filesystem until about <paramref name="leaveBytes"/> are free, until disposed.</summary>
    public IDisposable FillDisk(long leaveBytes)
    {
        // Root may use the blocks ext4 reserves for it, so fill what is free to root; block maps take room
        // too, so take it in pieces, halving a piece the filesystem refuses, until little is left.
        var fillers = new Fillers();
        string parent = Path.GetFullPath(Path.Combine(Root, ".."));
        long request = new DriveInfo(parent).TotalFreeSpace - leaveBytes;
        while (request >= 64 * 1024)
        {
            string filler = Path.Combine(parent, $"filler-{Guid.NewGuid():N}");
            try
            {
                fillers.Add(System.IO.File.OpenHandle(filler, FileMode.CreateNew, FileAccess.Write, FileShare.None, FileOptions.DeleteOnClose, preallocationSize: request));
                request = new DriveInfo(parent).TotalFreeSpace - leaveBytes;
            }
            catch (IOException)
            {
                System.IO.File.Delete(filler);
                request /= 2;
            }
        }

        return fillers;
    }

    private sealed class Fillers : System.Collections.Generic.List<IDisposable>, IDisposable
    {
        public void Dispose() => ForEach(f => f.Dispose());
    }

    /// <summary>Makes a copy of the source look up to date (same size and timestamp) at the destination.</summary>
    public ScenarioTree UpToDateCopy(string source, string destination)
    {
        string from = Path.Combine(Root, source);
        string to = Path.Combine(Root, destination);
        System.IO.Directory.CreateDirectory(Path.GetDirectoryName(to)!);
        System.IO.File.Copy(from, to, overwrite: true);
        System.IO.File.SetLastWriteTimeUtc(to, System.IO.File.GetLastWriteTimeUtc(from));
        return this;
    }

    public ScenarioTree Touch(string relative, DateTime lastWriteUtc)
    {
        System.IO.File.SetLastWriteTimeUtc(Path.Combine(Root, relative), lastWriteUtc);
        return this;
    }

    /// <summary>
    /// Sets a symbolic link's own last-write time, the one lstat reads and so the one .NET's FileInfo (and through it
    /// both Copy tasks' SkipUnchangedFiles) sees of a link on Unix; what the link leads to keeps its time. .NET sets a
    /// link's own time rather than following it; this checks that it did, so a runtime that changed it fails here.
    /// </summary>
    public ScenarioTree LinkTime(string relative, DateTime lastWriteUtc)
    {
        string path = Path.Combine(Root, relative);
        var link = new FileInfo(path);
        if (link.LinkTarget is null)
        {
            throw new InvalidOperationException($"{relative} is not a symbolic link");
        }

        DateTime? leadsTo = link.ResolveLinkTarget(returnFinalTarget: true) is { Exists: true } target ? target.LastWriteTimeUtc : null;
        System.IO.File.SetLastWriteTimeUtc(path, lastWriteUtc);
        link.Refresh();
        DateTime? leadsToAfter = link.ResolveLinkTarget(returnFinalTarget: true) is { Exists: true } after ? after.LastWriteTimeUtc : null;
        if (link.LastWriteTimeUtc != lastWriteUtc || leadsTo != leadsToAfter)
        {
            throw new InvalidOperationException($"{relative}: its own time is {link.LastWriteTimeUtc:o} (asked {lastWriteUtc:o}); what it leads to went from {leadsTo:o} to {leadsToAfter:o}");
        }

        return this;
    }
}
