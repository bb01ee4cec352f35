using System.ComponentModel;
using System.Runtime.InteropServices;

namespace CloneCopy.Platform.Windows;

/// <summary>The Win32 constants CloneCopy uses (winnt.h, winbase.h, winioctl.h, winerror.h). Values only.</summary>
internal static class Win32
{
    // Access rights.
    public const uint GenericRead = 0x80000000;
    public const uint GenericWrite = 0x40000000;
    public const uint Delete = 0x00010000;
    public const uint FileReadAttributes = 0x00000080;

    // Share modes.
    public const uint FileShareRead = 0x1;
    public const uint FileShareWrite = 0x2;
    public const uint FileShareDelete = 0x4;

    // Creation dispositions.
    public const uint CreateNew = 1;
    public const uint OpenExisting = 3;

    // Flags and attributes.
    public const uint FileAttributeReadOnly = 0x00000001;
    public const uint FileAttributeHidden = 0x00000002;
    public const uint FileAttributeSystem = 0x00000004;
    public const uint FileAttributeDirectory = 0x00000010;
    public const uint FileAttributeArchive = 0x00000020;
    public const uint FileAttributeNormal = 0x00000080;
    public const uint FileAttributeTemporary = 0x00000100;
    public const uint FileAttributeSparseFile = 0x00000200;
    public const uint FileAttributeOffline = 0x00001000;
    public const uint FileAttributeNotContentIndexed = 0x00002000;
    public const uint FileAttributeIntegrityStream = 0x00008000;

    /// <summary>
    /// The attributes a FileBasicInformation set may change (MS-FSA 2.1.5.15.2, "ValidSetAttributes"); the others
    /// (directory, sparse, reparse point, compressed, encrypted, integrity stream) belong to the file system.
    /// </summary>
    public const uint ValidSetAttributes = FileAttributeReadOnly | FileAttributeHidden | FileAttributeSystem | FileAttributeArchive
        | FileAttributeTemporary | FileAttributeOffline | FileAttributeNotContentIndexed;

    /// <summary>GetFileAttributesW's answer for a failure.</summary>
    public const uint InvalidFileAttributes = 0xFFFFFFFF;

    /// <summary>Needed to open a directory; harmless for a file.</summary>
    public const uint FileFlagBackupSemantics = 0x02000000;

    // GetVolumeInformationW's file system flags (FILE_FS_ATTRIBUTE_INFORMATION, MS-FSCC 2.5.1).
    /// <summary>POSIX-style delete and rename (FileDispositionInfoEx with FILE_DISPOSITION_FLAG_POSIX_SEMANTICS).</summary>
    public const uint FileSupportsPosixUnlinkRename = 0x00000400;
    public const uint FileNamedStreams = 0x00040000;
    public const uint FileSupportsExtendedAttributes = 0x00800000;
    public const uint FileSupportsIntegrityStreams = 0x04000000;

    /// <summary>The volume can share blocks between files (ReFS, Dev Drive).</summary>
    public const uint FileSupportsBlockRefcounting = 0x08000000;

    // FILE_DISPOSITION_INFO_EX flags (FileDispositionInfoEx).
    public const uint FileRenameFlagReplaceIfExists = 0x1;
    public const uint FileRenameFlagPosixSemantics = 0x2;
    public const uint MoveFileReplaceExisting = 0x1;
    public const uint Synchronize = 0x00100000;
    public const uint FileFlagOpenReparsePoint = 0x00200000;

    public const uint FileDispositionFlagDelete = 0x1;
    public const uint FileDispositionFlagPosixSemantics = 0x2;
    public const uint FileDispositionFlagIgnoreReadOnlyAttribute = 0x10;

    // Integrity streams (FSCTL_GET/SET_INTEGRITY_INFORMATION; MS-FSA 2.1.5.10.33).
    public const ushort ChecksumTypeNone = 0;
    public const ushort ChecksumTypeCrc32 = 1;
    public const ushort ChecksumTypeCrc64 = 2;
    public const ushort ChecksumTypeUnchanged = 0xFFFF;
    public const uint IntegrityFlagChecksumEnforcementOff = 0x1;

    /// <summary>GetDriveTypeW: a fixed disk.</summary>
    public const uint DriveFixed = 3;

    // Device I/O control codes.
    public const uint FsctlSetSparse = 0x000900C4;
    public const uint FsctlGetIntegrityInformation = 0x0009027C;
    public const uint FsctlSetIntegrityInformation = 0x0009C280;
    public const uint FsctlDuplicateExtentsToFile = 0x00098344;
    public const uint FsctlGetRetrievalPointersAndRefcount = 0x000903D3;

    // FSCTL_GET_RETRIEVAL_POINTERS: CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 28, METHOD_NEITHER, FILE_ANY_ACCESS); documented
    // since Windows XP and, on its page, for ReFS.
    public const uint FsctlGetRetrievalPointers = 0x00090073;

    /// <summary>SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE: accepted from Windows 10 build 14972 on.</summary>
    public const uint SymbolicLinkFlagAllowUnprivilegedCreate = 0x2;

    // Error codes.
    public const int ErrorInvalidFunction = 1;
    public const int ErrorFileNotFound = 2;
    public const int ErrorPathNotFound = 3;
    public const int ErrorAccessDenied = 5;
    public const int ErrorNotSameDevice = 17;
    public const int ErrorNotReady = 21;
    public const int ErrorGenFailure = 31;
    public const int ErrorSharingViolation = 32;
    public const int ErrorHandleEof = 38;
    public const int ErrorHandleDiskFull = 39;
    public const int ErrorNotSupported = 50;
    public const int ErrorFileExists = 80;
    public const int ErrorInvalidData = 13;
    public const int ErrorInvalidParameter = 87;
    public const int ErrorDiskFull = 112;
    public const int ErrorInsufficientBuffer = 122;
    public const int ErrorMoreData = 234;
    public const int ErrorInvalidName = 123;
    public const int ErrorAlreadyExists = 183;
    public const int ErrorFilenameExcedRange = 206;
    public const int WaitTimeout = 258;

    /// <summary>WAIT_ABANDONED (0x80): the wait gives ownership of a mutex whose owner thread ended without releasing it.</summary>
    public const int WaitAbandoned = 0x80;
    public const int ErrorNotOwner = 288;
    public const int ErrorBlockTooManyReferences = 347;
    public const int ErrorDiskQuotaExceeded = 1295;

    /// <summary>The HRESULT .NET gives an IOException for a Win32 error (FACILITY_WIN32).</summary>
    public static int HResultOf(int error) => error <= 0 ? error : unchecked((int)0x80070000) | (error & 0xFFFF);

    /// <summary>The Win32 error inside an exception's HRESULT, or 0 when it carries none.</summary>
    public static int ErrorOf(int hresult) => (hresult & unchecked((int)0xFFFF0000)) == unchecked((int)0x80070000) ? hresult & 0xFFFF : 0;

    /// <summary>
    /// The text MSBuild's Copy gives a failed hard or symbolic link (MSB3891/MSB3892): it words the error with
    /// Marshal.GetExceptionForHR(Marshal.GetHRForLastWin32Error()).Message, which on .NET adds the HRESULT
    /// ("File already exists. (0x800700B7)"), not with Win32Exception's text. Off Windows, as <see cref="Describe"/>.
    /// The thread's COM error object is ignored (IntPtr -1): with IntPtr.Zero, which the one-argument overload
    /// passes, the text can be a stale message left on the thread by an earlier, unrelated failure (seen under
    /// Wine: "Cannot create '…'" from another test's exception), which is not the link's reason.
    /// </summary>
    public static string DescribeAsMSBuildDoes(int error) => RunsOnWindows
        ? Marshal.GetExceptionForHR(HResultOf(error), new System.IntPtr(-1))?.Message ?? Describe(error)
        : Describe(error);

    /// <summary>
    /// The system's text for an error on Windows. Elsewhere (tests driving a simulated kernel on Linux) the
    /// runtime would read the number as an errno, so only the number is given.
    /// </summary>
    public static string Describe(int error) => RunsOnWindows
        ? new Win32Exception(error).Message
        : $"Win32 error {error}";

    /// <summary>
    /// Whether the system's texts are Windows' (this code also runs on Linux, over the simulator, in tests). An
    /// OS question inside the Windows folder, about wording only: the platform factory still decides what runs.
    /// </summary>
#pragma warning disable RS0030 // the one OS check of the Windows folder: whether the system can word a Win32 error
    private static readonly bool RunsOnWindows = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);
#pragma warning restore RS0030
}
