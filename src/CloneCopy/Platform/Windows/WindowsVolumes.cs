using System;
using System.Collections.Concurrent;
using System.IO;

namespace CloneCopy.Platform.Windows;

/// <summary>What a volume can do for a block clone: whether it shares blocks, its FILE_* flags (the cluster size is learnt from a clone's own handle).</summary>
internal readonly record struct VolumeCapability(bool CanBlockClone, string FileSystem, uint Flags = 0)
{
    public bool Has(uint flag) => (Flags & flag) != 0;
}

/// <summary>
/// Which volume holds a path, named by its volume GUID path (\\?\Volume{...}\), and what that volume can
/// do. Resolution asks the system, not the drive letter: GetVolumePathNameW finds the mount point (a ReFS
/// volume mounted in C:\dev, an NTFS volume mounted inside a ReFS drive), GetVolumeNameForVolumeMountPointW
/// names it; a subst drive, which has no volume name of its own, is followed to the folder it stands for.
/// A path without a volume GUID (a network share) is named by its mount point. A path that cannot be
/// resolved at all gets a key whose capability query throws: the caller reports it once and copies.
/// Answers are cached per directory and per volume; nothing is enumerated up front (the CopyOnWrite
/// package's scan of every volume is what failed builds on BitLocker-locked and RAW drives).
/// </summary>
internal sealed class WindowsVolumes
{
    /// <summary>Keys of paths that could not be resolved start with this, followed by the path's root.</summary>
    public const string UnresolvedPrefix = "?";

    private const int MaxCachedDirectories = 16384;
    private const string LongPathPrefix = @"\\?\";
    private const string DosDevicePrefix = @"\??\";

    private readonly IWindowsSystemCalls _kernel;
    private readonly ConcurrentDictionary<string, string> _keyByDirectory = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, string> _unresolvedBecause = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, VolumeCapability> _capabilityByKey = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, string> _mountPathByKey = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, bool> _integrityByDirectory = new(StringComparer.OrdinalIgnoreCase);
    private volatile Lazy<bool> _someFixedDriveClones;

    public WindowsVolumes(IWindowsSystemCalls kernel)
    {
        _kernel = LongPathCalls.Over(kernel);
        _someFixedDriveClones = new Lazy<bool>(SomeFixedDriveClones);
    }

    /// <summary>Forgets every answer: a new build on a reused node asks the system again.</summary>
    public void Forget()
    {
        _keyByDirectory.Clear();
        _unresolvedBecause.Clear();
        _capabilityByKey.Clear();
        _mountPathByKey.Clear();
        _integrityByDirectory.Clear();
        _someFixedDriveClones = new Lazy<bool>(SomeFixedDriveClones);
    }

    /// <summary>
    /// Whether the folder that will hold <paramref name="path"/> gives new files integrity streams (its
    /// FILE_ATTRIBUTE_INTEGRITY_STREAM: files "inherit" the setting of their folder, Integrity streams page), asked once
    /// per folder per build with GetFileAttributesW. A folder that cannot be asked is taken to have none: a clone into
    /// it is then refused by ReFS if it does, and the file is copied.
    /// </summary>
    public bool FolderHasIntegrityStreams(string path)
    {
        string directory = DirectoryOf(path);
        if (_integrityByDirectory.TryGetValue(directory, out bool known))
        {
            return known;
        }

        if (_integrityByDirectory.Count > MaxCachedDirectories)
        {
            _integrityByDirectory.Clear();
        }

        return _integrityByDirectory[directory] = _kernel.GetFileAttributes(directory, out uint attributes) == 0 && (attributes & Win32.FileAttributeIntegrityStream) != 0;
    }

    /// <summary>The key of the volume holding <paramref name="path"/> (a file that need not exist yet). Never throws.</summary>
    public string KeyOf(string path)
    {
        string directory = DirectoryOf(path);
        if (_keyByDirectory.TryGetValue(directory, out string? key))
        {
            return key;
        }

        if (_keyByDirectory.Count > MaxCachedDirectories)
        {
            _keyByDirectory.Clear(); // a long-lived build node: keep memory bounded
        }

        return _keyByDirectory[directory] = Resolve(FinalPathOf(directory));
    }

    /// <summary>
    /// The folder with every junction and directory link in it resolved (GetFinalPathNameByHandle on the opened
    /// folder). GetVolumePathName answers with "the longest prefix that represents a volume" (its Win32 page):
    /// a mount point is such a prefix, a junction is not, so C:\repo\packages leading to D:\cache would be
    /// keyed C: without this. A folder that cannot be opened (not there yet, no access) is keyed as written.
    /// <para>
    /// The folder is opened only where a junction could lead to a volume that clones: when some fixed drive of the
    /// machine reports FILE_SUPPORTS_BLOCK_REFCOUNTING (<see cref="SomeFixedDriveClones"/>). On an NTFS-only machine
    /// or CI agent no folder is opened. A junction into a volume that clones and has no drive letter (mounted in a
    /// folder only) is then keyed as written: a documented limit.
    /// </para>
    /// </summary>
    private string FinalPathOf(string directory) =>
        _someFixedDriveClones.Value && WindowsLinks.TryGetFinalPath(_kernel, directory, out string final) ? final : directory;

    /// <summary>
    /// Whether a fixed drive of this machine can clone, asked once per build: GetLogicalDrives, then GetDriveTypeW and
    /// GetVolumeInformationW for each fixed drive, errors taken as "cannot" (a BitLocker-locked or RAW drive answers
    /// with an error; nothing enumerates volumes, whose scan failed builds for the CopyOnWrite package). A machine
    /// whose drives cannot be listed is taken to have one that clones: folders are then resolved as before.
    /// </summary>
    private bool SomeFixedDriveClones()
    {
        if (_kernel.GetLogicalDrives(out uint drives) != 0)
        {
            return true;
        }

        for (int letter = 0; letter < 26; letter++)
        {
            string root = $"{(char)('A' + letter)}:\\";
            if ((drives & (1u << letter)) != 0 && _kernel.GetDriveType(root) == Win32.DriveFixed
                && _kernel.GetVolumeInformation(root, out _, out uint flags, out _) == 0 && (flags & Win32.FileSupportsBlockRefcounting) != 0)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// What the volume can do, asked of the system once per volume (GetVolumeInformationW). Throws
    /// <see cref="IOException"/> when the volume cannot be queried (locked, vanished, unreachable).
    /// </summary>
    public VolumeCapability CapabilityOf(string key)
    {
        if (_capabilityByKey.TryGetValue(key, out VolumeCapability known))
        {
            return known;
        }

        if (key.StartsWith(UnresolvedPrefix, StringComparison.Ordinal))
        {
            throw new IOException(_unresolvedBecause.TryGetValue(key, out string? why) ? why : $"Cannot tell which volume holds {key.Substring(1)}.");
        }

        int error = _kernel.GetVolumeInformation(key, out _, out uint flags, out string fileSystem);
        if (error != 0)
        {
            throw new IOException($"Cannot query volume {Named(key)}: {Win32.Describe(error)}", Win32.HResultOf(error));
        }

        return _capabilityByKey[key] = new VolumeCapability((flags & Win32.FileSupportsBlockRefcounting) != 0, fileSystem, flags);
    }

    /// <summary>
    /// The cluster size from GetDiskFreeSpaceW on the volume's mount point as GetVolumePathNameW gave it (a drive or UNC
    /// root, or a mounted folder), never on its \\?\Volume{GUID}\ root, which the page does not document. The fallback
    /// where the integrity query on a clone's own handle cannot tell it.
    /// </summary>
    public int ClusterSizeFromMountPoint(string key, out long clusterSize)
    {
        clusterSize = 0;
        string root = _mountPathByKey.TryGetValue(key, out string? mountPath) ? mountPath : key;
        int error = _kernel.GetDiskFreeSpace(root, out uint sectorsPerCluster, out uint bytesPerSector);
        clusterSize = (long)sectorsPerCluster * bytesPerSector;
        return error;
    }

    private string Resolve(string directory)
    {
        string path = directory;
        for (int hop = 0; hop < 4; hop++)
        {
            int error = _kernel.GetVolumePathName(path, out string volumePath);
            if (error != 0)
            {
                return Unresolved(directory, $"Cannot tell which volume holds {directory}: {Win32.Describe(error)}");
            }

            if (TryVolumeName(volumePath, out string volumeName))
            {
                _mountPathByKey.TryAdd(volumeName, volumePath);
                return volumeName;
            }

            // A subst drive: "S:" stands for \??\C:\some\folder. Resolve the path it stands for.
            string plain = WithoutLongPathPrefix(volumePath);
            if (_kernel.QueryDosDevice(plain.TrimEnd('\\', '/'), out string target) == 0 && target.StartsWith(DosDevicePrefix, StringComparison.Ordinal))
            {
                path = Join(target.Substring(DosDevicePrefix.Length), path.Length > volumePath.Length ? path.Substring(volumePath.Length) : string.Empty);
                continue;
            }

            return volumePath.ToUpperInvariant(); // a network share, or a volume without a GUID: its mount point names it
        }

        return Unresolved(directory, $"Cannot tell which volume holds {directory}: subst drives lead to each other.");
    }

    /// <summary>The volume GUID path of a mount point; also for \\?\C:\, which the call itself may refuse.</summary>
    private bool TryVolumeName(string volumePath, out string volumeName)
    {
        if (_kernel.GetVolumeNameForVolumeMountPoint(volumePath, out volumeName) == 0)
        {
            return true;
        }

        string plain = WithoutLongPathPrefix(volumePath);
        return !ReferenceEquals(plain, volumePath) && _kernel.GetVolumeNameForVolumeMountPoint(plain, out volumeName) == 0;
    }

    /// <summary>"E:\ (\\?\Volume{...}\)": people know their volumes by where they are mounted.</summary>
    private string Named(string key) => _mountPathByKey.TryGetValue(key, out string? mountPath) ? $"{mountPath} ({key})" : key;

    private string Unresolved(string directory, string reason)
    {
        string key = UnresolvedPrefix + (Path.GetPathRoot(directory) is { Length: > 0 } root ? root : directory).ToUpperInvariant();
        _unresolvedBecause.TryAdd(key, reason);
        return key;
    }

    /// <summary>"\\?\C:\x" → "C:\x"; "\\?\UNC\server\share" → "\\server\share"; anything else unchanged (the same instance).</summary>
    private static string WithoutLongPathPrefix(string path)
    {
        if (!path.StartsWith(LongPathPrefix, StringComparison.Ordinal))
        {
            return path;
        }

        string rest = path.Substring(LongPathPrefix.Length);
        if (rest.StartsWith(@"UNC\", StringComparison.OrdinalIgnoreCase))
        {
            return path.Remove(2, LongPathPrefix.Length + 2); // "\\?\UNC\" becomes "\\"
        }

        return rest.Length >= 2 && rest[1] == ':' ? rest : path;
    }

    /// <summary>The directory part of a path, by either separator (paths here are Windows paths, but tests run on Linux too).</summary>
    private static string DirectoryOf(string path)
    {
        string trimmed = path.TrimEnd('\\', '/');
        int end = Math.Max(trimmed.LastIndexOf('\\'), trimmed.LastIndexOf('/'));
        return end <= 0 ? path : path.Substring(0, end + 1);
    }

    private static string Join(string directory, string rest)
    {
        char separator = directory.Contains('\\') || !directory.Contains('/') ? '\\' : '/';
        return rest.Length == 0 ? directory : directory.TrimEnd('\\', '/') + separator + rest.TrimStart('\\', '/');
    }
}
