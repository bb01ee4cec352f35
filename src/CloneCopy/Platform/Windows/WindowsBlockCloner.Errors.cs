using System.IO;
using CloneCopy.Engine;

namespace CloneCopy.Platform.Windows;

/// <summary>Win32 answers turned into the engine's attempts: which condemn the volume, which are per file, which are real errors.</summary>
internal sealed partial class WindowsBlockCloner
{
    /// <summary>
    /// The volume cannot duplicate extents at all: STATUS_INVALID_DEVICE_REQUEST (ERROR_INVALID_FUNCTION), which
    /// MS-FSA 2.1.5.10.4 reserves for an object store that does not implement the FSCTL. Only this answer
    /// condemns the volume (remembered for it); every other refusal is about one file (MS-FSCC 2.3.8 lists
    /// STATUS_NOT_SUPPORTED for per-file conditions).
    /// </summary>
    private static CloneAttempt CannotCloneHere(int error, string path) =>
        CloneAttempt.ImpossibleHere(NotClonedReason.FilesystemCannotClone, Described(error, path));

    /// <summary>
    /// True, with the engine's answer, when a call failed. A real error (no space, no quota) is thrown as .NET
    /// words an IOException, with the Win32 error in its HRESULT: File.Copy would fail too, and MSBuild's retries
    /// and codes report it.
    /// </summary>
    private static bool Failed(int error, string path, out CloneAttempt attempt)
    {
        attempt = default;
        if (error == 0)
        {
            return false;
        }

        string message = Described(error, path);
        if (IsRealError(error))
        {
            throw new IOException(message, Win32.HResultOf(error));
        }

        attempt = Classify(error, message);
        return true;
    }

    private static bool IsRealError(int error) =>
        error is Win32.ErrorDiskFull or Win32.ErrorHandleDiskFull or Win32.ErrorDiskQuotaExceeded;

    private static CloneAttempt Classify(int error, string message) => error switch
    {
        // ERROR_BLOCK_TOO_MANY_REFERENCES: a block of the source has reached the reference limit (8175 on ReFS).
        Win32.ErrorBlockTooManyReferences => CloneAttempt.LinkLimit(message),

        // Only MSBuild's rules may replace an existing destination: File.Copy does, with its own checks.
        Win32.ErrorFileExists or Win32.ErrorAlreadyExists => CloneAttempt.DestinationExists(message),

        Win32.ErrorNotSameDevice => CloneAttempt.ImpossibleHere(NotClonedReason.DifferentVolumes, message),

        // ERROR_NOT_SUPPORTED (STATUS_NOT_SUPPORTED: per file in MS-FSCC 2.3.8, e.g. a sparse source into a
        // non-sparse target), ERROR_INVALID_FUNCTION from any step but the clone itself (a query this volume
        // does not answer), a sharing violation, access denied, an integrity or alignment refusal: copy this
        // file, try the next. File.Copy then reports a real problem with .NET's own words.
        _ => CloneAttempt.NotNow(message),
    };

    /// <summary>As .NET words an IOException: "message : 'path'".</summary>
    private static string Described(int error, string path) => $"{Win32.Describe(error)} : '{path}'";
}
