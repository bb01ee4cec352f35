using System;
using System.IO;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>One thing some tests need (their trait Needs=<see cref="Need"/>), as the probe found it here.</summary>
/// <param name="Need">The trait's value: SymbolicLinks, RenameOverOpenFile, ...</param>
/// <param name="Available">Whether doing it here did what the tests rely on.</param>
/// <param name="Found">What the probe did and saw, for the lane's log.</param>
public sealed record Capability(string Need, bool Available, string Found)
{
    /// <summary>"Needs=X yes|no what was found": the line the lanes read (scripts/wine-lane.sh).</summary>
    public override string ToString() => $"Needs={Need} {(Available ? "yes" : "no")} {Found}";
}

/// <summary>
/// Asks the running system, by doing it once in a scratch folder, whether it can do what some tests need, with the
/// same .NET calls those tests make: a lane leaves out what is missing and says so, instead of assuming from the
/// platform or Wine's version what it cannot do (Wine 8's CreateSymbolicLinkW reports success and makes nothing;
/// its MoveFileEx refuses to replace a file another handle holds open sharing delete; Wine 10 may do both).
/// </summary>
public static class CapabilityProbe
{
    private static readonly Lazy<Capability> SymbolicLinksAnswer = new(ProbeSymbolicLinks);
    private static readonly Lazy<Capability> RenameOverOpenFileAnswer = new(ProbeRenameOverOpenFile);
    private static readonly Lazy<Capability> UnixFileModesAnswer = new(ProbeUnixFileModes);

    /// <summary>File.CreateSymbolicLink and Directory.CreateSymbolicLink make links that read as their targets.</summary>
    public static Capability SymbolicLinks => SymbolicLinksAnswer.Value;

    /// <summary>
    /// A file renamed over (File.Move with overwrite, MoveFileExW with MOVEFILE_REPLACE_EXISTING on Windows) a file
    /// another handle holds open sharing read, write and delete, as the Windows simulator holds its files: the name
    /// leads to the new file and the handle still reads the old one.
    /// </summary>
    public static Capability RenameOverOpenFile => RenameOverOpenFileAnswer.Value;

    /// <summary>
    /// File.SetUnixFileMode and File.GetUnixFileMode give and read a file's mode (not on Windows, Wine included: .NET
    /// throws PlatformNotSupportedException there), as the tests of the macOS platform's own transfer need.
    /// </summary>
    public static Capability UnixFileModes => UnixFileModesAnswer.Value;

    private static Capability ProbeSymbolicLinks()
    {
        const string need = "SymbolicLinks";
        return InScratch(folder =>
        {
            string target = Path.Combine(folder, "target.txt");
            File.WriteAllText(target, "through the link");
            string fileLink = Path.Combine(folder, "file-link.txt");
            File.CreateSymbolicLink(fileLink, target);
            if (!File.Exists(fileLink) || new FileInfo(fileLink).LinkTarget is null)
            {
                return new Capability(need, false, "File.CreateSymbolicLink (CreateSymbolicLinkW) reported success and made no link");
            }

            if (File.ReadAllText(fileLink) != "through the link")
            {
                return new Capability(need, false, "a file link made by File.CreateSymbolicLink does not read as its target");
            }

            string targetFolder = Directory.CreateDirectory(Path.Combine(folder, "real")).FullName;
            File.WriteAllText(Path.Combine(targetFolder, "inside.txt"), "inside");
            string folderLink = Path.Combine(folder, "folder-link");
            Directory.CreateSymbolicLink(folderLink, targetFolder);
            return File.Exists(Path.Combine(folderLink, "inside.txt"))
                ? new Capability(need, true, "File.CreateSymbolicLink and Directory.CreateSymbolicLink made links that read as their targets")
                : new Capability(need, false, "Directory.CreateSymbolicLink made no folder link that leads to its target's files");
        }, need, "making a symbolic link");
    }

    private static Capability ProbeRenameOverOpenFile()
    {
        const string need = "RenameOverOpenFile";
        return InScratch(folder =>
        {
            string destination = Path.Combine(folder, "app.dll");
            string replacement = Path.Combine(folder, "replacement.tmp");
            File.WriteAllText(destination, "old");
            File.WriteAllText(replacement, "new");
            using SafeFileHandle held = File.OpenHandle(destination, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            File.Move(replacement, destination, overwrite: true);
            var old = new byte[3];
            int read = RandomAccess.Read(held, old, 0);
            return File.ReadAllText(destination) == "new" && read == 3 && old.AsSpan().SequenceEqual("old"u8)
                ? new Capability(need, true, "File.Move with overwrite replaced a file held open sharing delete; the handle kept the old file")
                : new Capability(need, false, "File.Move with overwrite over a file held open sharing delete did not leave the new file at the name and the old one at the handle");
        }, need, "renaming over a file held open sharing delete");
    }

    // Asked on Windows too, precisely to be refused there (PlatformNotSupportedException, answered "no").
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Interoperability", "CA1416", Justification = "The probe's question is whether this platform has modes.")]
    private static Capability ProbeUnixFileModes()
    {
        const string need = "UnixFileModes";
        return InScratch(folder =>
        {
            const UnixFileMode script = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
            string file = Path.Combine(folder, "script.sh");
            File.WriteAllText(file, "exit 0");
            File.SetUnixFileMode(file, script);
            return File.GetUnixFileMode(file) == script
                ? new Capability(need, true, "File.SetUnixFileMode gave a file mode 0700 and File.GetUnixFileMode read it back")
                : new Capability(need, false, $"File.SetUnixFileMode gave 0700 and File.GetUnixFileMode read {File.GetUnixFileMode(file)}");
        }, need, "giving a file a Unix mode");
    }

    /// <summary>Runs a probe in a new temporary folder; an exception is the answer "no", with its message.</summary>
    private static Capability InScratch(Func<string, Capability> probe, string need, string doing)
    {
        string folder = Directory.CreateTempSubdirectory("clonecopy-probe").FullName;
        try
        {
            return probe(folder);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or PlatformNotSupportedException)
        {
            return new Capability(need, false, $"{doing} failed: {e.GetType().Name}: {e.Message}");
        }
        finally
        {
            try
            {
                Directory.Delete(folder, recursive: true);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // A scratch folder in the temporary folder; nothing depends on its going.
            }
        }
    }
}
