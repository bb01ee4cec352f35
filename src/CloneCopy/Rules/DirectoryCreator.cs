using System;
using System.Collections.Concurrent;
using System.IO;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>Creates destination directories once per task invocation, logging each one it creates.</summary>
internal sealed class DirectoryCreator
{
    // string to string: shared generic code that needs no JIT in a fresh node (string to bool would).
    private readonly ConcurrentDictionary<string, string> _known = new(MSBuildPlatformRules.PathComparer);
    private readonly TaskLoggingHelper _log;

    public DirectoryCreator(TaskLoggingHelper log) => _log = log;

    /// <summary>
    /// True when <see cref="Ensure"/> would do nothing: no folder to create (an empty spec), or one this call already
    /// made sure of. Asks nothing of the filesystem.
    /// </summary>
    public bool IsKnown(string directorySpec, string? directoryFullPath) =>
        directorySpec.Length == 0 || directoryFullPath is not { Length: > 0 } || _known.ContainsKey(directoryFullPath);

#if NET
    /// <summary>
    /// <see cref="IsKnown(string, string)"/> for the folders of a destination spec and its full path, without making
    /// either folder's string: most files of a call go where the one before went, which is remembered.
    /// </summary>
    public bool IsKnownFolderOf(string destinationSpec, string destinationFull)
    {
        System.ReadOnlySpan<char> folder = Path.GetDirectoryName(destinationFull.AsSpan());
        if (Path.GetDirectoryName(destinationSpec.AsSpan()).Length == 0 || folder.Length == 0)
        {
            return true;
        }

        string? last = _lastKnown;
        if (last is not null && folder.Equals(last.AsSpan(), MSBuildPlatformRules.PathComparison))
        {
            return true;
        }

        string folderPath = folder.ToString();
        if (!_known.ContainsKey(folderPath))
        {
            return false;
        }

        _lastKnown = folderPath;
        return true;
    }

    /// <summary>The folder <see cref="IsKnownFolderOf"/> last found known (any thread's; a known folder stays known).</summary>
    private string? _lastKnown;
#else
    public bool IsKnownFolderOf(string destinationSpec, string destinationFull) =>
        IsKnown(Path.GetDirectoryName(destinationSpec) ?? string.Empty, Path.GetDirectoryName(destinationFull));
#endif

    /// <param name="directorySpec">The directory part of the destination as the user wrote it (for the message).</param>
    /// <param name="directoryFullPath">
    /// The same directory, full path (the cache key); null for a path without one, as a Windows device
    /// (\\.\NUL): then, as in MSBuild, there is nothing to create.
    /// </param>
    public void Ensure(string directorySpec, string? directoryFullPath)
    {
        if (directorySpec.Length == 0 || directoryFullPath is not { Length: > 0 } || _known.ContainsKey(directoryFullPath))
        {
            return;
        }

        MSBuildMaxPath.ThrowIfTooLong(directoryFullPath);
        if (!Directory.Exists(directoryFullPath))
        {
            _log.LogCopyMessage(MessageImportance.Normal, CopyMessages.CreatesDirectory, directorySpec);
            Directory.CreateDirectory(directoryFullPath);
        }

        _known.TryAdd(directoryFullPath, directoryFullPath);
    }
}
