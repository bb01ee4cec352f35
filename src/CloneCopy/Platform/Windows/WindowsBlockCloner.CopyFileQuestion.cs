using System.Threading;
using CloneCopy.Engine;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Platform.Windows;

/// <summary>The CopyFile question: whether Windows' CopyFile clones on a volume, learnt once per volume per build from one file.</summary>
internal sealed partial class WindowsBlockCloner
{
    /// <summary>An extent's LCN where nothing is allocated (MS-FSCC 2.3.33, RETRIEVAL_POINTERS_BUFFER).</summary>
    private const long UnallocatedLcn = -1;

    /// <summary>
    /// Whether CopyFile clones on this volume, learnt from this file, whose copy MSBuild's Copy would have made with it
    /// anyway: CopyFileW writes the real destination (nothing else is written, so a killed node leaves only what
    /// MSBuild's Copy would have), and the first clusters of source and copy are compared (FSCTL_GET_RETRIEVAL_POINTERS:
    /// LCNs, not reference counts, which ReFS updates late). Shared: CopyFile clones here, and this file is its clone
    /// (Cloned). Not shared, or no answer: CloneCopy clones on this volume for the rest of the build, and CopyFile's
    /// copy, a correct copy, is kept (<see cref="NotClonedReason.CopyFileCopiedWhenAsked"/>): deleting it could leave
    /// the name delete-pending behind a scanner on a volume without POSIX delete, and buys nothing. CopyFile refused
    /// (the destination exists, access denied): undecided, another file will tell, and this one is copied as any
    /// refused file (null only where nothing was written).
    /// </summary>
    private CloneAttempt? ProbeCopyFile(SafeFileHandle from, Win32FileAllInformation sourceInfo, string source, string destination, VolumeCapability volume, VolumeState state, bool fresh)
    {
        int error = _calls.CopyFile(source, destination);
        if (error != 0)
        {
            Volatile.Write(ref state.CopyFile, CopyFileUnknown);
            return Failed(error, destination, out CloneAttempt refused) ? refused : null;
        }

        // Read access for the extents (FSCTL_GET_RETRIEVAL_POINTERS) and the read-back, DELETE to remove a clone that
        // reads back wrong, sharing everything: a scanner may hold it. Write access only for a test's hook, which a
        // READONLY copy refuses (File Attribute Constants): that refusal is the hook's, not CopyFile's answer, so the
        // question stays open for another file; the copy, CopyFile's own, is kept as any answer keeps it.
        bool hook = _readBack?.HasTestHook == true;
        uint access = Win32.GenericRead | Win32.Delete | (hook ? Win32.GenericWrite : 0);
        if (_calls.CreateFile(destination, access, Win32.FileShareRead | Win32.FileShareWrite | Win32.FileShareDelete, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle copy) != 0)
        {
            Volatile.Write(ref state.CopyFile, hook ? CopyFileUnknown : CopyFileCopies);
            return CopiedWhenAsked;
        }

        bool clones;
        long? sourceLcn;
        bool marked = true;
        try
        {
            sourceLcn = FirstClusterOf(from);
            clones = sourceLcn > 0 && sourceLcn == FirstClusterOf(copy);

            // CopyFile's clone is read back (on the source's handle and the copy's) before files are left to CopyFile:
            // a wrong one is removed, as a wrong clone of CloneCopy's own, and the file copied plainly.
            if (clones && _readBack?.Check(state.Key, from, copy, sourceInfo.EndOfFile, destination, whole: fresh) is CloneAttempt wrong)
            {
                Volatile.Write(ref state.CopyFile, CopyFileCopies);
                marked = MarkForDeletion(copy, volume);
                return wrong;
            }
        }
        finally
        {
            _calls.CloseHandle(copy);
            if (!marked)
            {
                _calls.DeleteFile(destination);
            }
        }

        // A source whose first extent is a hole (LCN -1; sparse sources do not ask, but a file may have become sparse
        // since its attributes were read) says nothing about CopyFile: undecided, another file will tell.
        Volatile.Write(ref state.CopyFile, clones ? CopyFileClones : sourceLcn == UnallocatedLcn ? CopyFileUnknown : CopyFileCopies);
        return clones ? CloneAttempt.Cloned : CopiedWhenAsked;
    }

    /// <summary>
    /// The LCN of a file's first extent: -1 (<see cref="UnallocatedLcn"/>) for a hole; null where there is no answer (an
    /// error, no clusters: ERROR_HANDLE_EOF, data resident in the file record, ASSUMED A11 not to happen on ReFS). LCN 0,
    /// which holds the volume's boot sector and is Wine's answer for every file, is never taken as shared.
    /// </summary>
    private long? FirstClusterOf(SafeFileHandle file)
    {
        int error = _calls.GetExtents(file, 1, out Win32Extent[] extents);
        return (error == 0 || error == Win32.ErrorMoreData) && extents.Length > 0 ? extents[0].Lcn : null;
    }
}
