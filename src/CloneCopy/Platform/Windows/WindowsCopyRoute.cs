namespace CloneCopy.Platform.Windows;

/// <summary>
/// Which way CloneCopy puts a file on a volume that can block-clone, by Windows build. From Windows 11 24H2
/// and Windows Server 2025 (build 26100) on, CopyFile itself clones on ReFS and Dev Drive, and the
/// CopyOnWrite library's benchmarks found its own FSCTL clone of small files about 1.8 times slower than
/// CopyFile there; no published measurement has it faster for large files, where both clone. MSBuild's Copy
/// is CopyFile, so on those builds CloneCopy takes CopyFile for every size: never slower than MSBuild's
/// Copy, and the log says "Windows' CopyFile clones here itself" rather than claiming a clone it did not
/// make or check. Before that build CopyFile never clones, and the block clone is CloneCopy's whole point.
/// </summary>
internal static class WindowsCopyRoute
{
    /// <summary>Windows 11 24H2 and Windows Server 2025.</summary>
    public const int FirstBuildWhoseCopyFileClones = 26100;

    /// <summary>True when the platform's CopyFile should be used even where a block clone is possible.</summary>
    public static bool LeaveCloningToCopyFile(int osBuild) => osBuild >= FirstBuildWhoseCopyFileClones;
}
