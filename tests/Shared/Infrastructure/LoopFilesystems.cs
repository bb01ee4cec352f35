using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Threading;
using Xunit;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>The real filesystems the tests run on.</summary>
public enum FilesystemKind
{
    /// <summary>XFS formatted with reflink=1: clones.</summary>
    Xfs,

    /// <summary>A second, separate reflink XFS: clones within itself, EXDEV to and from <see cref="Xfs"/>.</summary>
    SecondXfs,

    /// <summary>btrfs: clones (small files inline, so sharing checks use larger files).</summary>
    Btrfs,

    /// <summary>ext4: cannot clone, exercises the fallback.</summary>
    Ext4,
}

/// <summary>
/// Makes and loop-mounts a reflink XFS, a second XFS, a btrfs and an ext4 for the test run, when it runs as
/// root with the mkfs tools (CI installs them); or takes already-mounted directories from
/// CLONECOPY_TEST_XFS, CLONECOPY_TEST_XFS2, CLONECOPY_TEST_BTRFS and CLONECOPY_TEST_EXT4. Unmounts and
/// deletes everything it made when the run ends.
/// </summary>
public sealed class LoopFilesystems : IDisposable
{
    private static readonly Dictionary<FilesystemKind, (string Variable, string MkfsTool, string MkfsArguments, string Size)> Specs = new()
    {
        // Sparse images: they take on the host only what the tests write. The real builds restore packages into
        // caches on these volumes, one per test repository (a clone needs source and destination on one volume),
        // and the test run keeps them to its end: 512 MB filled up once the suite had grown (2026-11-26).
        [FilesystemKind.Xfs] = ("CLONECOPY_TEST_XFS", "mkfs.xfs", "-q -f -m reflink=1", "4G"),
        [FilesystemKind.SecondXfs] = ("CLONECOPY_TEST_XFS2", "mkfs.xfs", "-q -f -m reflink=1", "2G"),
        [FilesystemKind.Btrfs] = ("CLONECOPY_TEST_BTRFS", "mkfs.btrfs", "-q -f", "2G"),
        [FilesystemKind.Ext4] = ("CLONECOPY_TEST_EXT4", "mkfs.ext4", "-q -F", "2G"),
    };

    private readonly string _scratch = Path.Combine(Path.GetTempPath(), $"clonecopy-fs-{Environment.ProcessId}");
    private readonly Dictionary<FilesystemKind, string> _roots = new();
    private readonly List<string> _mounted = new();
    private int _counter;

    /// <summary>True when every filesystem can be had here (CI must have them; elsewhere the tests skip).</summary>
    public static bool CanProvide
    {
        get
        {
            bool allGiven = true;
            foreach (var spec in Specs.Values)
            {
                allGiven &= Directory.Exists(Environment.GetEnvironmentVariable(spec.Variable) ?? string.Empty);
            }

            return allGiven || (IsRoot() && File.Exists("/dev/loop-control") && ToolsInstalled());
        }
    }

    public static bool IsCi => string.Equals(Environment.GetEnvironmentVariable("CI"), "true", StringComparison.OrdinalIgnoreCase);

    public string Root(FilesystemKind kind)
    {
        lock (_roots)
        {
            if (!_roots.TryGetValue(kind, out string? root))
            {
                root = Provide(kind);
                _roots[kind] = root;
            }

            return root;
        }
    }

    /// <summary>A new, empty directory on the given filesystem.</summary>
    public string NewDirectory(FilesystemKind kind, string? name = null)
    {
        // The process id too: several test processes (the lanes of scripts/test.sh) share given directories.
        string directory = Path.Combine(Root(kind), $"{name ?? "t"}-{Environment.ProcessId}-{Interlocked.Increment(ref _counter)}");
        Directory.CreateDirectory(directory);
        return directory;
    }

    public void Dispose()
    {
        foreach (string mountPoint in _mounted)
        {
            if (ProcessRunner.Run("umount", $"\"{mountPoint}\"").ExitCode != 0)
            {
                ProcessRunner.Run("umount", $"-l \"{mountPoint}\"");
            }
        }

        try
        {
            Directory.Delete(_scratch, recursive: true);
        }
        catch (IOException)
        {
            // A lazily unmounted image may still be busy; it is sparse and in the temp directory.
        }
    }

    /// <summary>
    /// A separate, small filesystem of the given kind, for tests that fill one up. Always made here (never
    /// taken from the environment), so it needs root.
    /// </summary>
    public string MountSmall(FilesystemKind kind, string size)
    {
        var spec = Specs[kind];
        string name = $"small-{kind.ToString().ToLowerInvariant()}-{Interlocked.Increment(ref _counter)}";
        return Mount(name, spec.MkfsTool, spec.MkfsArguments, size);
    }

    private string Mount(string name, string mkfs, string arguments, string size)
    {
        Directory.CreateDirectory(_scratch);
        string image = Path.Combine(_scratch, $"{name}.img");
        string mountPoint = Path.Combine(_scratch, name);
        Directory.CreateDirectory(mountPoint);
        ProcessRunner.RunChecked("truncate", $"-s {size} \"{image}\"");
        ProcessRunner.RunChecked(mkfs, $"{arguments} \"{image}\"");
        ProcessRunner.RunChecked("mount", $"-o loop \"{image}\" \"{mountPoint}\"");
        lock (_mounted)
        {
            _mounted.Add(mountPoint);
        }

        return mountPoint;
    }

    private string Provide(FilesystemKind kind)
    {
        var spec = Specs[kind];
        string? given = Environment.GetEnvironmentVariable(spec.Variable);
        if (!string.IsNullOrEmpty(given))
        {
            Assert.True(Directory.Exists(given), $"{spec.Variable}={given} does not exist");
            return given;
        }

        if (!CanProvide)
        {
            throw new InvalidOperationException(
                $"No {kind} filesystem: run as root with xfsprogs, btrfs-progs and e2fsprogs installed, or set {spec.Variable} to a mounted directory.");
        }

        return Mount(kind.ToString().ToLowerInvariant(), spec.MkfsTool, spec.MkfsArguments, spec.Size);
    }

    private static bool IsRoot() => Environment.UserName == "root" || ProcessRunner.Run("id", "-u").Output.Trim() == "0";

    private static bool ToolsInstalled()
    {
        foreach (var spec in Specs.Values)
        {
            if (!File.Exists($"/usr/sbin/{spec.MkfsTool}") && !File.Exists($"/sbin/{spec.MkfsTool}") && !File.Exists($"/usr/bin/{spec.MkfsTool}"))
            {
                return false;
            }
        }

        return true;
    }
}

/// <summary>
/// A test that needs the loop-mounted filesystems. Outside CI it skips where they cannot be had (not
/// root, no mkfs tools); under CI=true it always runs, and fails if they cannot be had.
/// </summary>
public sealed class FilesystemFactAttribute : FactAttribute
{
    public FilesystemFactAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (!LoopFilesystems.IsCi && !LoopFilesystems.CanProvide)
        {
            Skip = "Needs root and mkfs.xfs/mkfs.btrfs/mkfs.ext4 (or CLONECOPY_TEST_* directories); CI=true makes this a failure.";
        }
    }
}

/// <summary>The <see cref="FilesystemFactAttribute"/> rule for theories.</summary>
public sealed class FilesystemTheoryAttribute : TheoryAttribute
{
    public FilesystemTheoryAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (!LoopFilesystems.IsCi && !LoopFilesystems.CanProvide)
        {
            Skip = "Needs root and mkfs.xfs/mkfs.btrfs/mkfs.ext4 (or CLONECOPY_TEST_* directories); CI=true makes this a failure.";
        }
    }
}
