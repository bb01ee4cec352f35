using System.Threading;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>What the cloner learns about one volume in one build, and the cluster size it clones in.</summary>
internal sealed partial class WindowsBlockCloner
{
    /// <summary>The two cluster sizes ReFS formats with (Format-Volume -AllocationUnitSize: 4 KiB, the default, or 64 KiB).</summary>
    private const long ReFSSmallCluster = 4096;

    private const long ReFSLargeCluster = 65536;

    /// <summary>
    /// The cluster size of the volume, learnt once per volume per build from the first source opened there:
    /// ClusterSizeInBytes of FSCTL_GET_INTEGRITY_INFORMATION (MS-FSCC 2.3.20) on that open handle, as reflink-copy takes
    /// it, and only when it is a cluster ReFS has (4 KiB or 64 KiB: the two values reflink-copy accepts), with the
    /// source's integrity setting in the same reply (<paramref name="sourceSetting"/>, null when not asked). Where the
    /// volume has no integrity streams, the query fails or its answer is not such a cluster, GetDiskFreeSpaceW on the
    /// volume's mount point, as the CopyOnWrite library takes it (a drive or UNC root, or a mounted folder: the forms
    /// its page documents; never the \\?\Volume{GUID}\ root, which it does not). Null when neither answers: that file
    /// is copied, the next asks again.
    /// </summary>
    private long? ClusterSizeOf(SafeFileHandle from, VolumeCapability volume, VolumeState state, string destination, out IntegrityInformation? sourceSetting)
    {
        sourceSetting = null;
        long known = Volatile.Read(ref state.ClusterSize);
        if (known > 0)
        {
            return known;
        }

        long clusterSize = 0;
        if (volume.Has(Win32.FileSupportsIntegrityStreams) && _calls.GetIntegrityInformation(from, out IntegrityInformation setting, out long reported) == 0)
        {
            sourceSetting = setting;
            clusterSize = reported is ReFSSmallCluster or ReFSLargeCluster ? reported : 0;
        }

        if (clusterSize <= 0 && Volumes.ClusterSizeFromMountPoint(state.Key, out long fromRoot) == 0 && fromRoot > 0)
        {
            clusterSize = fromRoot;
        }

        if (clusterSize <= 0)
        {
            return null;
        }

        Volatile.Write(ref state.ClusterSize, clusterSize);
        return clusterSize;
    }

    /// <summary>One volume's answers in one build (forgotten when a new build starts).</summary>
    private sealed class VolumeState
    {
        public VolumeState(string key, int copyFile)
        {
            Key = key;
            CopyFile = copyFile;
        }

        /// <summary>The volume's key (<see cref="WindowsVolumes.KeyOf"/>).</summary>
        public string Key { get; }

        /// <summary>What CopyFile does here: CopyFileUnknown, CopyFileProbing, CopyFileClones or CopyFileCopies.</summary>
        public int CopyFile;

        /// <summary>Bytes per cluster; 0 until learnt (<see cref="ClusterSizeOf"/>).</summary>
        public long ClusterSize;

        /// <summary>Clone refusals in a row here (<see cref="RefusalsBeforeGivingUp"/>); 0 after every clone.</summary>
        public int Refusals;

        /// <summary>FSCTL_SET_INTEGRITY_INFORMATION was refused with access denied here (client Windows, Dev Drive).</summary>
        public bool GivesNoIntegrity;
    }
}
