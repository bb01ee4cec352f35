using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using CloneCopy.Platform.MacOS;
using CloneCopy.Tests.Windows;

namespace CloneCopy.Tests.MacOS;

/// <summary>
/// macOS's stat, lstat and clonefile over the real files of the OS the tests run on: identities are the
/// host's (statx on Linux, kernel32 under Wine), devices can be overridden per folder to stand for other
/// volumes mounted under / (/nix, the sealed system volume), and clonefile behaves as documented (EEXIST
/// for an existing destination; the copy keeps mode and timestamps) unless a script answers first.
/// This is a model of macOS, not macOS: it proves the cloner's decisions.
/// </summary>
internal sealed class StatBackedDarwinCalls : IDarwinCalls
{
    private const int ENOENT = 2;
    private readonly Dictionary<string, ulong> _deviceByFolder = new(StringComparer.Ordinal);

    /// <summary>(source, destination, flags) of every clonefile call.</summary>
    public List<(string Source, string Destination, uint Flags)> Clones { get; } = new();

    /// <summary>An errno to answer a clonefile call with instead of cloning, or 0.</summary>
    public Func<string, string, uint, int> CloneScript { get; set; } = (_, _, _) => 0;

    /// <summary>
    /// What the volume does to a clone once made, given its path: a clone that reads back wrong (CLC008) is made by
    /// changing its bytes here, as no real APFS does on request.
    /// </summary>
    public Action<string>? AfterCloneMade { get; set; }

    /// <summary>Files under <paramref name="folder"/> report <paramref name="device"/> as their st_dev.</summary>
    public void MountDevice(string folder, ulong device) => _deviceByFolder[folder.TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar] = device;

    public int Stat(string path, out DarwinFileStatus status) => Read(path, followLinks: true, out status);

    public int LStat(string path, out DarwinFileStatus status) => Read(path, followLinks: false, out status);

    public int CloneFile(string source, string destination, uint flags)
    {
        Clones.Add((source, destination, flags));
        int scripted = CloneScript(source, destination, flags);
        if (scripted != 0)
        {
            return scripted;
        }

        if (LStat(destination, out _) == 0)
        {
            return MacCloneErrors.EEXIST;
        }

        File.Copy(source, destination); // a new file with the source's content, mode and timestamps
        AfterCloneMade?.Invoke(destination);
        return 0;
    }

    /// <summary>
    /// macOS's open without sharing, flock and unlink, on the host: a Unix host takes .NET's own exclusive lock
    /// (FileShare.None), a Windows host (Wine) must share delete to unlink a file it holds open, as macOS unlinks one.
    /// </summary>
    public int RemoveUnshared(string path)
    {
        try
        {
            using (new FileStream(path, FileMode.Open, FileAccess.ReadWrite, OperatingSystem.IsWindows() ? FileShare.Delete : FileShare.None, bufferSize: 1))
            {
                File.Delete(path);
            }

            return 0;
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            return ENOENT;
        }
        catch (UnauthorizedAccessException)
        {
            return MacCloneErrors.EACCES;
        }
        catch (IOException)
        {
            return MacCloneErrors.EWOULDBLOCK;
        }
    }

    private int Read(string path, bool followLinks, out DarwinFileStatus status)
    {
        status = default;
        RealFileIds.Id? id = RealFileIds.Read(path, followLinks);
        if (id is null)
        {
            return ENOENT;
        }

        string full = Path.GetFullPath(path) + (id.Value.IsDirectory ? Path.DirectorySeparatorChar.ToString() : string.Empty);
        ulong device = _deviceByFolder.Where(m => full.StartsWith(m.Key, StringComparison.Ordinal)).OrderByDescending(m => m.Key.Length).Select(m => (ulong?)m.Value).FirstOrDefault() ?? id.Value.Device;
        status = new DarwinFileStatus(device, id.Value.Inode, id.Value.Links, id.Value.IsDirectory, id.Value.IsSymbolicLink);
        return 0;
    }
}
