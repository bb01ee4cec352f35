using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using CloneCopy.Engine;

namespace CloneCopy.Tests.Engine;

/// <summary>
/// A stand-in for a platform's whole-file cloner (the engine's <see cref="IFileCloner"/>): "clones" by writing
/// the bytes (no ReFS here), counts references per source like ReFS does per block, and can be told to
/// answer the ways real machines do. Volumes are drive roots unless <see cref="VolumeOfPath"/> says otherwise.
/// </summary>
internal sealed class FakeFileCloner : IFileCloner, ISeedingCloner
{
    private readonly ConcurrentDictionary<string, int> _references = new();
    private readonly ConcurrentDictionary<string, string> _seeds = new();

    /// <summary>References one block may have (ReFS and Dev Drive allow 8175).</summary>
    public int ReferenceLimit { get; init; } = 8175;

    public bool Supported { get; init; } = true;

    public Exception? ProbeFailure { get; init; }

    /// <summary>Given a source, the answer to give instead of cloning it, or null to clone.</summary>
    public Func<string, CloneAttempt?>? CloneFailure { get; init; }

    public Func<string, string> VolumeOfPath { get; init; } = path => Path.GetPathRoot(Path.GetFullPath(path))?.ToUpperInvariant() ?? string.Empty;

    public List<(string Source, string Destination)> Clones { get; } = new();

    public int Probes { get; private set; }

    public bool ClonesKeepMetadata => false;

    public string VolumeOf(string path) => VolumeOfPath(path);

    public void ForgetVolumes()
    {
    }

    public NotClonedReason ProbeVolumes(string source, string destination)
    {
        if (!string.Equals(VolumeOf(source), VolumeOf(destination), StringComparison.OrdinalIgnoreCase))
        {
            return NotClonedReason.DifferentVolumes;
        }

        Probes++;
        if (ProbeFailure is not null)
        {
            throw ProbeFailure;
        }

        return Supported ? NotClonedReason.None : NotClonedReason.FilesystemCannotClone;
    }

    /// <summary>Later clones of <paramref name="source"/> read from <paramref name="copy"/> (whose blocks have one reference).</summary>
    public void CopiedAtLinkLimit(string source, string copy) => _seeds[source] = copy;

    public CloneAttempt Clone(string source, string destination, CancellationToken cancellation)
    {
        if (CloneFailure?.Invoke(source) is CloneAttempt failure)
        {
            return failure;
        }

        source = _seeds.TryGetValue(source, out string? seed) ? seed : source;

        // Each clone adds a reference to the source's blocks; a fresh copy starts again at one.
        int references = _references.AddOrUpdate(source, 2, (_, n) => n + 1);
        if (references > ReferenceLimit)
        {
            return CloneAttempt.LinkLimit($"too many references to the blocks of {source}");
        }

        lock (Clones)
        {
            Clones.Add((source, destination));
        }

        // Like FSCTL_DUPLICATE_EXTENTS_TO_FILE: the data arrives, the timestamps are new.
        File.WriteAllBytes(destination, File.ReadAllBytes(source));
        return CloneAttempt.Cloned;
    }
}
