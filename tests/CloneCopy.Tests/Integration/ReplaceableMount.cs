using System;
using System.IO;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// One folder whose filesystem is replaced on request: each <see cref="Mount"/> unmounts the previous one, detaches its
/// loop device and attaches the new image to that same device when it is still free, so the new filesystem has the
/// old one's device number.
/// </summary>
internal sealed class ReplaceableMount : IDisposable
{
    private int _count;
    private string? _loop;

    public ReplaceableMount()
    {
        Scratch = Directory.CreateTempSubdirectory("clonecopy-mounts").FullName;
        Path = System.IO.Path.Combine(Scratch, "mounted");
        Directory.CreateDirectory(Path);
    }

    public string Scratch { get; }

    public string Path { get; }

    /// <summary>The mounted filesystem's device as stat(1) names it (major:minor).</summary>
    public string Device => ProcessRunner.RunChecked("stat", $"-c %Hd:%Ld \"{Path}\"").Trim();

    public string Mount(FilesystemKind kind)
    {
        if (_loop is not null)
        {
            // Not lazily: a filesystem still held (by the build's process) would keep its device number busy.
            ProcessRunner.RunChecked("umount", $"\"{Path}\"");
        }

        string image = System.IO.Path.Combine(Scratch, $"fs{++_count}.img");
        ProcessRunner.RunChecked("truncate", $"-s 1G \"{image}\"");
        ProcessRunner.RunChecked(kind == FilesystemKind.Xfs ? "mkfs.xfs" : "mkfs.ext4", kind == FilesystemKind.Xfs ? $"-q -f -m reflink=1 \"{image}\"" : $"-q -F \"{image}\"");
        string? previous = _loop;
        if (previous is not null)
        {
            ProcessRunner.Run("losetup", $"-d {previous}");
        }

        _loop = previous is not null && ProcessRunner.Run("losetup", $"{previous} \"{image}\"").ExitCode == 0
            ? previous
            : ProcessRunner.RunChecked("losetup", $"-f --show \"{image}\"").Trim();
        ProcessRunner.RunChecked("mount", $"{_loop} \"{Path}\"");
        return Path;
    }

    public void Dispose()
    {
        if (_loop is not null)
        {
            if (ProcessRunner.Run("umount", $"\"{Path}\"").ExitCode != 0)
            {
                ProcessRunner.Run("umount", $"-l \"{Path}\"");
            }

            ProcessRunner.Run("losetup", $"-d {_loop}");
        }

        Directory.Delete(Scratch, recursive: true);
    }
}
