#if NET
using System;
using System.IO;

namespace CloneCopy.Platform.Unix;

/// <summary>
/// The advisory locks .NET's File.Copy takes on Unix (flock: shared on the source, exclusive on the
/// destination, never waiting), so that a file another .NET process holds open without sharing fails here
/// as it fails for MSBuild's Copy, with .NET's sharing-violation error. .NET's own switch turns them off
/// (System.IO.DisableFileLocking / DOTNET_SYSTEM_IO_DISABLEFILELOCKING) and turns them off here too.
/// </summary>
internal static class DotNetFileLocks
{
    private const int EINTR = 4; // the same on Linux and macOS

    private static readonly bool Disabled = IsDisabled();

    /// <summary>Locks, or throws .NET's "being used by another process" IOException when someone else holds the file.</summary>
    /// <param name="wouldBlock">EWOULDBLOCK (EAGAIN) in the caller's OS's numbering: 11 on Linux, 35 on macOS.</param>
    public static void Lock(int fd, bool exclusive, string path, int wouldBlock)
    {
        if (Disabled)
        {
            return;
        }

        int operation = (exclusive ? UnixLibC.LOCK_EX : UnixLibC.LOCK_SH) | UnixLibC.LOCK_NB;
        while (UnixLibC.FLock(fd, operation) != 0)
        {
            int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
            if (errno == EINTR)
            {
                continue;
            }

            if (errno == wouldBlock)
            {
                throw new IOException($"The process cannot access the file '{path}' because it is being used by another process.", errno);
            }

            return; // no locking here (ENOTSUP, EACCES, NFS): .NET goes on without it, and so do we
        }
    }

    private static bool IsDisabled()
    {
        if (AppContext.TryGetSwitch("System.IO.DisableFileLocking", out bool disabled))
        {
            return disabled;
        }

        string? variable = CopyEnvironment.Process.Variable("DOTNET_SYSTEM_IO_DISABLEFILELOCKING");
        return variable is not null && (variable == "1" || variable.Equals("true", StringComparison.OrdinalIgnoreCase));
    }
}
#endif
