using System;
using System.Collections.Concurrent;
using System.IO;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Finds out, once per volume and build, whether Windows' CopyFile clones on that volume: a small probe file
/// is written in the destination's folder, copied there with CopyFile, and the two files' first clusters are
/// compared (FSCTL_GET_RETRIEVAL_POINTERS). Shared clusters mean CopyFile cloned; anything else (other
/// clusters, a query the volume does not answer, a folder the probe cannot write) means it did not, and
/// CloneCopy block-clones itself. Both probe files are removed. Microsoft's Block Cloning page says which
/// Windows versions clone in CopyFile (from the Moment 5 update, KB5034848); this checks it where it matters.
/// </summary>
internal sealed class CopyFileCloneProbe
{
    /// <summary>Two 32 KiB clusters, the largest ReFS cluster size being 64 KiB: a whole cluster at least.</summary>
    private const int ProbeLength = 64 * 1024;

    private readonly IWindowsSystemCalls _kernel;
    private readonly ConcurrentDictionary<string, bool> _byVolume = new(StringComparer.OrdinalIgnoreCase);

    public CopyFileCloneProbe(IWindowsSystemCalls kernel) => _kernel = kernel;

    /// <summary>True when CopyFile was seen to clone on the volume <paramref name="volumeKey"/>, probed in <paramref name="folder"/>.</summary>
    public bool ClonesOn(string volumeKey, string folder) => _byVolume.GetOrAdd(volumeKey, _ => Probe(folder));

    /// <summary>Forgets every answer (a new build).</summary>
    public void Forget() => _byVolume.Clear();

    private bool Probe(string folder)
    {
        string stem = Path.Combine(folder, ".clonecopy-probe-" + Guid.NewGuid().ToString("N"));
        string original = stem + ".tmp";
        string copy = stem + ".copy.tmp";
        try
        {
            using (var stream = new FileStream(original, FileMode.CreateNew, FileAccess.Write, FileShare.Read | FileShare.Delete))
            {
                byte[] data = new byte[ProbeLength];
                new Random(ProbeLength).NextBytes(data);
                stream.Write(data, 0, data.Length);
                stream.Flush(flushToDisk: true); // allocated clusters, not dirty cache pages
            }

            // LCN 0 holds the volume's boot sector, never a file's data: an answer of 0 is no answer (Wine's
            // FSCTL_GET_RETRIEVAL_POINTERS says 0 for every file).
            return _kernel.CopyFile(original, copy) == 0
                && FirstCluster(original) is long a && a > 0
                && FirstCluster(copy) is long b && a == b;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
        finally
        {
            _kernel.DeleteFile(copy);
            _kernel.DeleteFile(original);
        }
    }

    private long? FirstCluster(string path)
    {
        if (_kernel.CreateFile(path, Win32.GenericRead, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle handle) != 0)
        {
            return null;
        }

        try
        {
            return _kernel.GetFirstCluster(handle, out long cluster) == 0 ? cluster : null;
        }
        finally
        {
            _kernel.CloseHandle(handle);
        }
    }
}
