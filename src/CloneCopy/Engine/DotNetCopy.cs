using System;
using System.IO;

namespace CloneCopy.Engine;

/// <summary>
/// What the engine does when its own way of copying fails in a way that is not the disk speaking (on Linux: a C
/// library without a call, an unexpected exception; on Windows and macOS also a cloner's I/O error): it hands the
/// same copy to .NET's File.Copy, which is what MSBuild's Copy calls. On Linux an errno that fails the attempt
/// is thrown as .NET's exception instead, for MSBuild's retries (docs/how-it-works.md). If File.Copy fails too,
/// its exception is the one the user sees, with .NET's exact type and words (MSB3021 and MSB3026 quote them, and
/// tools match on them); if it succeeds, the file is copied as MSBuild's Copy would have copied it, so an odd
/// failure of ours never fails a build that MSBuild's Copy would have passed.
/// </summary>
internal static class DotNetCopy
{
    /// <param name="destinationTouched">True when the failed attempt had already created or truncated the destination.</param>
    public static TransferResult AfterFailure(string sourcePath, string destinationPath, bool destinationTouched)
    {
        try
        {
            File.Copy(sourcePath, destinationPath, overwrite: true);
        }
        catch (Exception) when (destinationTouched)
        {
            // Its old content is gone already; what is there now is at most half a file. Remove it, so no
            // later up-to-date check can take it for a finished copy.
            TryDelete(destinationPath);
            throw;
        }

        return new TransferResult(TransferMethod.Copied, NotClonedReason.RefusedForThisFile, LengthForTheSummary(destinationPath, sourcePath));
    }

    /// <summary>
    /// The bytes written, for the summary only: a look MSBuild's Copy does not take after File.Copy, so a failing look
    /// must not fail a copy that is made. Then the source's length, else nothing counted.
    /// </summary>
    private static long LengthForTheSummary(string destinationPath, string sourcePath) =>
        LengthOrNothing(destinationPath) ?? LengthOrNothing(sourcePath) ?? 0;

    private static long? LengthOrNothing(string path)
    {
        try
        {
            return new FileInfo(path).Length;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Nothing more to do: the error being reported says what is wrong with this destination.
        }
    }
}
