using System;
using System.IO;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// CloneCopyAtomicReplace on Windows: the finished replacement takes the destination's name in one rename. First by
/// handle, FileRenameInfoEx with REPLACE_IF_EXISTS and POSIX_SEMANTICS (the old file's name goes at once even where a
/// reader holds it open with FILE_SHARE_DELETE, as rename(2) lets it on Linux); where that class is not known (before
/// Windows 10 1607, FAT, some network redirectors) or refused, MoveFileEx with MOVEFILE_REPLACE_EXISTING, which also
/// replaces in one step on one volume. The replacement is opened as itself (a symbolic link made in place of the
/// destination is renamed, not the file it points to), and with FILE_READ_ATTRIBUTES too, so that what is asked of the
/// renamed file afterwards is asked through the handle that renamed it: that handle names the file it renamed whatever
/// the final name holds by then (another node's copy of the same output, a double write, may take the name a moment
/// later).
/// </summary>
internal static class WindowsReplace
{
    /// <param name="renamed">Called once the replacement has the destination's name: with the handle that renamed it, still
    /// open (closed right after), or with null after MoveFileEx, which leaves no handle on the file it moved.</param>
    public static void Replace(IWindowsSystemCalls kernel, string replacementPath, string destinationPath, Action<SafeFileHandle?> renamed)
    {
        int error = kernel.CreateFile(replacementPath, Win32.Delete | Win32.Synchronize | Win32.FileReadAttributes, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete,
            Win32.OpenExisting, Win32.FileFlagOpenReparsePoint | Win32.FileFlagBackupSemantics, out SafeFileHandle handle);
        if (error == 0)
        {
            try
            {
                error = kernel.RenameByHandle(handle, destinationPath, Win32.FileRenameFlagReplaceIfExists | Win32.FileRenameFlagPosixSemantics);
                if (error == 0)
                {
                    renamed(handle);
                }
            }
            finally
            {
                kernel.CloseHandle(handle);
            }

            if (error == 0)
            {
                return;
            }
        }

        error = kernel.MoveFileReplacing(replacementPath, destinationPath);
        if (error != 0)
        {
            throw new IOException($"{Win32.DescribeAsMSBuildDoes(error)} : '{destinationPath}'", Win32.HResultOf(error));
        }

        renamed(null);
    }
}
