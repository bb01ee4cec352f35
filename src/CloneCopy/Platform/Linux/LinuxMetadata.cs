#if NET

namespace CloneCopy.Platform.Linux;

/// <summary>What File.Copy leaves on a copy besides its bytes: the source's mode and times.</summary>
internal static unsafe class LinuxMetadata
{
    /// <summary>
    /// Mode (rwx for user, group and other: File.Copy does not carry setuid, setgid or sticky over), then
    /// access and last-write times: last, so only a complete file carries the source's timestamp.
    /// The chmod is skipped when the file was created with the right mode already (the usual case: the
    /// umask did not strip anything), which saves a metadata transaction per file on XFS and btrfs.
    /// </summary>
    /// <param name="stampTimes">False for a copy shorter than the source's size said: it keeps the time it was written at.</param>
    public static void CopyFromSource(int destination, string destinationPath, in LibC.StatxBuffer sourceStat, in LibC.StatxBuffer destinationStat, bool stampTimes)
    {
        uint mode = sourceStat.Mode & LibC.AccessPermissionBits;
        if ((destinationStat.Mode & LibC.PermissionBits) != mode && LibC.FChmod(destination, mode) != 0)
        {
            // File.Copy ignores a failed chmod too (a filesystem without modes, such as vfat).
        }

        if (!stampTimes)
        {
            return;
        }

        LibC.Timespec* times = stackalloc LibC.Timespec[2];
        times[0] = new LibC.Timespec { Seconds = sourceStat.AccessTime.Seconds, Nanoseconds = sourceStat.AccessTime.Nanoseconds };
        times[1] = new LibC.Timespec { Seconds = sourceStat.ModificationTime.Seconds, Nanoseconds = sourceStat.ModificationTime.Nanoseconds };
        if (LibC.FUtimens(destination, times) != 0)
        {
            // File.Copy lets EPERM pass here (the fault lane saw MSBuild's Copy pass with it: a filesystem that will not
            // set times for this user); the copy keeps its own time, so the next build's size-and-time test recopies it.
            int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
            if (errno != LinuxErrors.EPERM)
            {
                throw LinuxErrors.ToException(errno, path: null);
            }
        }
    }
}
#endif
