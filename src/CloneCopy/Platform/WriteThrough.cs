namespace CloneCopy.Platform;

/// <summary>
/// Whether a write into an existing read-only file would go through for this process: on Unix root may
/// write whatever the mode says (access(2) answers for it, on Linux and macOS alike); anyone else is refused,
/// as MSBuild's Copy is. On Windows the read-only attribute stops every writer.
/// </summary>
internal static class WriteThrough
{
    public static bool WouldSucceed(string path)
    {
#if NET
        return !System.OperatingSystem.IsWindows() && Linux.LibC.Access(path, Linux.LibC.W_OK) == 0;
#else
        return false;
#endif
    }
}
