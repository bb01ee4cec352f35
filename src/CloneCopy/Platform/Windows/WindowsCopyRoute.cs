namespace CloneCopy.Platform.Windows;

/// <summary>
/// Which way CloneCopy puts a file on a volume that can block-clone, by Windows version. Microsoft's Block
/// Cloning page (learn.microsoft.com/windows-server/storage/refs/block-cloning): "Starting with the Windows 11
/// Moment 5 update (KB5034848) and later releases of Windows client and Windows Server builds, block cloning
/// occurs natively in supported Windows copy operations" on ReFS and Dev Drive: builds 22621 and 22631 from
/// update revision 3235, and 26100 (24H2, Server 2025) on. There the CopyOnWrite library's benchmarks found
/// its own FSCTL clone of small files about 1.8 times slower than CopyFile, and no published measurement has
/// it faster for large files, where both clone. MSBuild's Copy is CopyFile, so on those versions CloneCopy
/// takes CopyFile for every size: never slower than MSBuild's Copy; the log says "Windows' CopyFile clones
/// here itself" (a claim from Microsoft's page, not checked per volume). Elsewhere CopyFile never clones, and
/// the block clone is CloneCopy's whole point.
/// </summary>
internal static class WindowsCopyRoute
{
    /// <summary>Windows 11 24H2 and Windows Server 2025: CopyFile clones at any revision.</summary>
    public const int FirstBuildWhoseCopyFileClones = 26100;

    /// <summary>The update revision KB5034848 (Moment 5) brings builds 22621 and 22631 to.</summary>
    public const int Moment5Revision = 3235;

    /// <summary>True when the platform's CopyFile should be used even where a block clone is possible.</summary>
    public static bool LeaveCloningToCopyFile(int osBuild, int updateRevision) =>
        osBuild >= FirstBuildWhoseCopyFileClones || (osBuild is 22621 or 22631 && updateRevision >= Moment5Revision);
}
