using System;
using System.IO;
using System.Threading;
using CloneCopy.Platform;

namespace CloneCopy.Engine;

/// <summary>
/// The transfer chain for platforms with a whole-file clone primitive (Windows, macOS): clone, else the
/// platform's File.Copy. It never lets cloning fail a build: a cloner that cannot be created, or a volume
/// that cannot be probed (whatever the probe throws), switches cloning off (for the process, or for that
/// pair of volumes) with one diagnostic, and the file is copied. At the link limit it copies, and tells a cloner
/// that re-seeds itself (<see cref="ISeedingCloner"/>) where the fresh copy is: later clones of that source may
/// read from it (its blocks start again at one reference).
/// </summary>
internal sealed class ClonerTransfer : IFileTransfer, ICloneOnlyTransfer, IBuildScopedVerdicts
{
    private readonly Lazy<IFileCloner?> _cloner;
    private readonly CloneCapabilityCache<(string Source, string Destination)> _capabilities = new();
    private string _unavailableReason = string.Empty;
    private readonly object _buildLock = new();
    private object? _build;
    private readonly Func<string, FileInfo> _fileItLeadsTo;
    private long _linkLimitHits;
    private readonly bool _unixModes;

    /// <param name="fileItLeadsTo">The platform's answer to "which file does this path lead to" (<see cref="IPlatform.FileItLeadsTo"/>); .NET's by default.</param>
    /// <param name="unixModes">Files carry Unix modes (macOS): a plain copy carries the source's mode, not Windows attributes (<see cref="PlainCopy"/>).</param>
    public ClonerTransfer(Func<IFileCloner> createCloner, EngineDiagnostics diagnostics, Func<string, FileInfo>? fileItLeadsTo = null, bool unixModes = false)
    {
        _unixModes = unixModes;
        Diagnostics = diagnostics;
        Verifier = new CloneVerifier<string>(diagnostics);
        _fileItLeadsTo = fileItLeadsTo ?? (path => Platform.Portable.DotNetPathProbe.FileItLeadsTo(path));
        _cloner = new Lazy<IFileCloner?>(() => Create(createCloner), LazyThreadSafetyMode.ExecutionAndPublication);
    }

    public EngineDiagnostics Diagnostics { get; }

    /// <summary>Reads clones back (<see cref="CloneVerifier{TVolume}"/>).</summary>
    public CloneVerifier<string> Verifier { get; }

    /// <summary>Pairs that fell back to a full copy because of the link limit.</summary>
    public long LinkLimitHits => Interlocked.Read(ref _linkLimitHits);

    /// <summary>A new build forgets what was learnt about volumes (their keys, capabilities and verdicts).</summary>
    public void UseVerdictsOf(object build)
    {
        if (ReferenceEquals(Volatile.Read(ref _build), build))
        {
            return; // the same build: the common case, without a lock
        }

        // The new build is published only after the old verdicts are gone, so no task of the new build can
        // skip this and read a verdict of the last one while another task clears them.
        lock (_buildLock)
        {
            if (ReferenceEquals(_build, build))
            {
                return;
            }

            _capabilities.Clear();
            Verifier.Forget();
            if (_cloner.IsValueCreated)
            {
                _cloner.Value?.ForgetVolumes();
            }

            Volatile.Write(ref _build, build);
        }
    }

    /// <summary>
    /// CloneCopyAtomicReplace renamed a file this chain wrote (at the temporary name it was given) over its destination:
    /// a cloner that remembers what it wrote by name (<see cref="IRenameFollowingCloner"/>: the seed made at the link
    /// limit) records the final name, else the seed would be looked for where it no longer is and every later clone of
    /// that source at the limit would be a full copy. <paramref name="renamed"/> is what the platform can show of the renamed
    /// file itself (Windows: the handle that renamed it), or null. Nothing when no cloner was made yet.
    /// </summary>
    public void Renamed<TRenamed>(string from, string to, TRenamed? renamed)
        where TRenamed : class
    {
        if (_cloner.IsValueCreated && _cloner.Value is IRenameFollowingCloner<TRenamed> following)
        {
            following.Renamed(from, to, renamed);
        }
    }

    public TransferResult Transfer(string sourcePath, string destinationPath, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();

        // For a symbolic link, the file it leads to: on Windows a link's own length is 0 and its attributes
        // are the link's, and File.Copy copies the target. Its volume is the one that decides cloning.
        FileInfo source = _fileItLeadsTo(sourcePath);
        long length = source.Length; // throws FileNotFoundException for a missing source, as File.Copy would
        NotClonedReason reason;
        try
        {
            reason = TryClone(source, destinationPath, inPlaceOfLink: false, cancellationToken);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // A real error (disk full, quota): the cloner has removed what it made. File.Copy, which MSBuild's
            // Copy calls, gets the same chance and, if it fails too, the last word with .NET's own exception.
            return DotNetCopy.AfterFailure(sourcePath, destinationPath, destinationTouched: false);
        }

        if (reason == NotClonedReason.None)
        {
            return TransferResult.Cloned(length);
        }

        if (reason == NotClonedReason.CopyFileCopiedWhenAsked)
        {
            return new TransferResult(TransferMethod.Copied, reason, length); // the platform's copy is already made: keep it
        }

        cancellationToken.ThrowIfCancellationRequested();
        if (reason == NotClonedReason.CloneReadBackDiffered)
        {
            // A wrong clone here, or earlier on this pair: a plain copy, never another clone (File.Copy clones on macOS,
            // and CopyFile on ReFS from the Moment 5 update).
            long written = PlainCopy.Write(sourcePath, destinationPath, _unixModes, cancellationToken);
            return new TransferResult(TransferMethod.Copied, reason, written);
        }

        File.Copy(sourcePath, destinationPath, overwrite: true);
        if (reason == NotClonedReason.LinkLimit && _cloner.Value is ISeedingCloner seeding)
        {
            // The copy has fresh blocks with one reference each: later clones of this source may read from it.
            seeding.CopiedAtLinkLimit(source.FullName, destinationPath);
        }

        if (reason == NotClonedReason.EmptyFile)
        {
            // A size of 0 is not always an empty file (a named pipe, a /proc file): File.Copy read it to its end,
            // so what it wrote is what the source held.
            length = new FileInfo(destinationPath).Length;
            reason = length == 0 ? NotClonedReason.EmptyFile : NotClonedReason.SizeNotKnownInAdvance;
        }

        return new TransferResult(TransferMethod.Copied, reason, length);
    }

    public bool TryCloneOnly(string sourcePath, string destinationPath, CancellationToken cancellationToken, out TransferResult result)
    {
        cancellationToken.ThrowIfCancellationRequested();
        result = default;
        try
        {
            FileInfo source = _fileItLeadsTo(sourcePath);
            if (!source.Exists || TryClone(source, destinationPath, inPlaceOfLink: true, cancellationToken) != NotClonedReason.None)
            {
                return false;
            }

            result = TransferResult.Cloned(source.Length);
            return true;
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            // Any failure, even disk full: the link MSBuild would make instead needs no space, so it decides.
            return false;
        }
    }

    /// <param name="inPlaceOfLink">
    /// True when the clone replaces a link MSBuild would make: then only a clone will do, and where the platform's
    /// copy is preferred because it clones by itself (<see cref="NotClonedReason.CopyFileClonesHere"/>) the cloner
    /// clones itself (<see cref="ICopyPreferringCloner"/>), since a copy there would become a hard link into the
    /// package cache. So too when the build's CI guard is on (<see cref="BuildVerdicts.ClonesMustBeKnown"/>).
    /// </param>
    private NotClonedReason TryClone(FileInfo source, string destinationPath, bool inPlaceOfLink, CancellationToken cancellationToken)
    {
        IFileCloner? cloner = _cloner.Value;
        if (cloner is null)
        {
            Diagnostics.Report(EngineDiagnosticKind.CloningUnavailable, "process", _unavailableReason);
            return NotClonedReason.CloningDisabled;
        }

        if (source.Length == 0)
        {
            return NotClonedReason.EmptyFile;
        }

        string cloneSource = source.FullName;
        (string, string) volumes;
        try
        {
            volumes = (cloner.VolumeOf(cloneSource), cloner.VolumeOf(destinationPath));
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            // An unknown drive (a mapped network drive), a locked volume: no cloning there, never a failed build.
            Diagnostics.Report(EngineDiagnosticKind.VolumeProbeFailed, Path.GetPathRoot(destinationPath) ?? destinationPath, e.Message);
            return NotClonedReason.CloningDisabled;
        }

        NotClonedReason verdict = Verdict(cloner, volumes, cloneSource, destinationPath);
        if (verdict != NotClonedReason.None)
        {
            return verdict;
        }

        CloneAttempt attempt;
        try
        {
            bool itself = inPlaceOfLink || (Volatile.Read(ref _build) as BuildVerdicts)?.ClonesMustBeKnown == true;
            attempt = itself && cloner is ICopyPreferringCloner preferring
                ? preferring.CloneItself(cloneSource, destinationPath, cancellationToken)
                : cloner.Clone(cloneSource, destinationPath, cancellationToken);
        }
        catch (Exception e) when (e is not (IOException or UnauthorizedAccessException or OperationCanceledException))
        {
            // A cloner bug or an unexpected platform answer: disable cloning for this pair, copy instead.
            Diagnostics.Report(EngineDiagnosticKind.VolumeProbeFailed, volumes.Item2, e.Message);
            _capabilities.RememberImpossible(volumes, NotClonedReason.CloningDisabled);
            return NotClonedReason.CloningDisabled;
        }

        switch (attempt.Kind)
        {
            case CloneAttemptKind.Cloned:
                if (!cloner.ClonesKeepMetadata)
                {
                    CopyMetadataAsFileCopyDoes(source, destinationPath);
                }

                // A cloner that reads back read its clone before this answer, on its own handles.
                return cloner is IReadingBackCloner ? NotClonedReason.None : ReadBack(volumes, source, destinationPath);
            case CloneAttemptKind.ImpossibleHere:
                _capabilities.RememberImpossible(volumes, attempt.Reason);
                return attempt.Reason;
            case CloneAttemptKind.LinkLimit:
                Interlocked.Increment(ref _linkLimitHits);
                Diagnostics.Report(EngineDiagnosticKind.LinkLimitReached, volumes.Item1, attempt.Detail);
                return NotClonedReason.LinkLimit;
            default:
                return attempt.Reason;
        }
    }

    /// <summary>
    /// The cached verdict for a pair of volumes, or the cloner's probe the first time. Whatever the probe
    /// throws (an IOException from a volume query included) becomes one diagnostic and a cached
    /// "cloning disabled" for the pair: the file is copied, as MSBuild's Copy would have.
    /// </summary>
    private NotClonedReason Verdict(IFileCloner cloner, (string, string) volumes, string source, string destination)
    {
        if (_capabilities.IsKnownImpossible(volumes, out NotClonedReason known))
        {
            return known;
        }

        if (_capabilities.IsKnownPossible(volumes))
        {
            return NotClonedReason.None;
        }

        _capabilities.CountAttempt();
        NotClonedReason verdict;
        try
        {
            verdict = cloner.ProbeVolumes(source, destination);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            Diagnostics.Report(EngineDiagnosticKind.VolumeProbeFailed, volumes.Item2, e.Message);
            _capabilities.RememberImpossible(volumes, NotClonedReason.CloningDisabled);
            return NotClonedReason.CloningDisabled;
        }

        if (verdict == NotClonedReason.None)
        {
            _capabilities.RememberPossible(volumes);
        }
        else
        {
            _capabilities.RememberImpossible(volumes, verdict);
        }

        return verdict;
    }

    /// <summary>
    /// The read-back of a clone by path (<see cref="CloneVerifier{TVolume}"/>), for a cloner that does not read back
    /// itself (<see cref="IReadingBackCloner"/>; macOS, whose clonefile gives no handle): None when it matches. A clone
    /// that differs, or that cannot be read, is removed (unlink needs no write access to the file, so a clone of a 0444
    /// source goes too), and the caller copies: plainly after a mismatch, after which the pair clones no more in this
    /// build; as after any refusal when the read failed.
    /// </summary>
    private NotClonedReason ReadBack((string, string) volumes, FileInfo source, string destinationPath)
    {
        bool same;
        bool sourceRewritten = false;
        try
        {
            // The source is read again by path, so another process may have written it since the clone: then the
            // difference is that writer's, not the volume's (source holds what was seen before the clone).
            same = Verifier.Confirms(volumes.Item2, source.FullName, destinationPath, source.Length, (Volatile.Read(ref _build) as BuildVerdicts)?.VerifyClones == true,
                () => sourceRewritten = WrittenSince(source));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            File.Delete(destinationPath);
            return NotClonedReason.RefusedForThisFile;
        }

        if (same)
        {
            return NotClonedReason.None;
        }

        if (sourceRewritten)
        {
            // Copied as any file whose clone was refused: the copy takes what the source holds now.
            File.Delete(destinationPath);
            return NotClonedReason.RefusedForThisFile;
        }

        _capabilities.RememberImpossible(volumes, NotClonedReason.CloneReadBackDiffered);
        File.Delete(destinationPath);
        return NotClonedReason.CloneReadBackDiffered;
    }

    /// <summary>Whether the file's size or last-write time moved since <paramref name="before"/> was read (or it is gone).</summary>
    private static bool WrittenSince(FileInfo before)
    {
        var now = new FileInfo(before.FullName);
        return !now.Exists || now.Length != before.Length || now.LastWriteTimeUtc != before.LastWriteTimeUtc;
    }

    /// <summary>A block clone carries no metadata: give the destination what File.Copy would have.</summary>
    private static void CopyMetadataAsFileCopyDoes(FileInfo source, string destinationPath)
    {
        File.SetAttributes(destinationPath, source.Attributes & ~FileAttributes.ReadOnly);
        File.SetLastWriteTimeUtc(destinationPath, source.LastWriteTimeUtc);
        File.SetAttributes(destinationPath, source.Attributes);
    }

    private IFileCloner? Create(Func<IFileCloner> createCloner)
    {
        try
        {
            IFileCloner cloner = createCloner();
            (cloner as IReadingBackCloner)?.ReadBackWith(new CloneReadBack(Verifier, () => (Volatile.Read(ref _build) as BuildVerdicts)?.VerifyClones == true));
            return cloner;
        }
        catch (Exception e)
        {
            // The existing SDK failed whole builds here (MSB4061 from a static initializer). We copy instead.
            // A TypeInitializationException says nothing useful itself: name the failure underneath it.
            Exception root = e.GetBaseException();
            _unavailableReason = ReferenceEquals(root, e) ? $"{e.GetType().Name}: {e.Message}" : $"{e.GetType().Name} caused by {root.GetType().Name}: {root.Message}";
            return null;
        }
    }
}
