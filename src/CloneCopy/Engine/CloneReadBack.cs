using System;
using System.IO;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Engine;

/// <summary>
/// The read-back (<see cref="CloneVerifier{TVolume}"/>) as a cloner runs it itself, inside its clone: after the data
/// is shared and before the clone is given the source's metadata, on the handles it cloned with. A mismatch is then an
/// ordinary failed clone: the cloner removes its half-made file as after any failure, and the engine writes the file
/// again by a plain copy. Read back after the metadata step instead, a clone of a read-only or hidden source already
/// carried READONLY or HIDDEN, which CopyFile refuses to overwrite ("fails with ERROR_ACCESS_DENIED if the destination
/// file already exists and has the FILE_ATTRIBUTE_HIDDEN or FILE_ATTRIBUTE_READONLY attribute set"), and by path a
/// source another process rewrote after the clone read as a wrong clone.
/// </summary>
internal sealed class CloneReadBack
{
    private readonly CloneVerifier<string> _verifier;
    private readonly Func<bool> _everyClone;

    /// <param name="everyClone">Whether this build reads every clone back whole (CloneCopyVerifyClones).</param>
    public CloneReadBack(CloneVerifier<string> verifier, Func<bool> everyClone)
    {
        _verifier = verifier;
        _everyClone = everyClone;
    }

    /// <summary>A test hook will write the clone: the cloner must hold it open for writing (it does on Windows).</summary>
    public bool HasTestHook => _verifier.AfterCloneForTests is not null;

    /// <summary>
    /// Null when the clone on <paramref name="volume"/> holds its source's bytes (or needs no read-back now); else the
    /// attempt the cloner answers with, after removing its clone: <see cref="NotClonedReason.CloneReadBackDiffered"/>
    /// (CLC008 said once per volume) for different bytes, or a refusal of this file for a read that failed.
    /// </summary>
    /// <param name="whole">Read the whole clone whatever the volume's record (a fresh source that could not be flushed).</param>
    public CloneAttempt? Check(string volume, SafeFileHandle source, SafeFileHandle clone, long length, string destinationPath, bool whole)
    {
        try
        {
            return _verifier.Confirms(volume, source, clone, length, destinationPath, whole || _everyClone()) ? null : Differed(destinationPath);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or NotSupportedException)
        {
            return CloneAttempt.NotNow($"The clone could not be read back: {e.Message}");
        }
    }

    private static CloneAttempt Differed(string destinationPath) =>
        CloneAttempt.ImpossibleHere(NotClonedReason.CloneReadBackDiffered, $"'{destinationPath}' read back differently from its source");
}

/// <summary>
/// A cloner that reads its clones back itself (<see cref="CloneReadBack"/>), before their metadata is set. The engine
/// hands it the read-back once, when it creates the cloner, and reads none of its clones back by path.
/// </summary>
internal interface IReadingBackCloner
{
    void ReadBackWith(CloneReadBack readBack);
}
