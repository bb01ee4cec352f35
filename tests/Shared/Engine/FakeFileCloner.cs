using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using CloneCopy.Platform.Windows;

namespace CloneCopy.Tests.Engine;

/// <summary>
/// A stand-in for the Windows block-clone filesystem: "clones" by writing the bytes (no ReFS here), counts
/// references per source like ReFS does per block, and can be told to fail the ways real machines do.
/// </summary>
internal sealed class FakeCopyOnWriteFilesystem : ICopyOnWriteFilesystem
{
    private readonly ConcurrentDictionary<string, int> _references = new();

    public int MaxClonesPerFile { get; init; } = 8175;

    public bool Supported { get; init; } = true;

    public Exception? ProbeFailure { get; init; }

    public Func<string, Exception?>? CloneFailure { get; init; }

    public List<(string Source, string Destination)> Clones { get; } = new();

    public int Probes { get; private set; }

    public bool CopyOnWriteLinkSupportedBetweenPaths(string source, string destination)
    {
        Probes++;
        if (ProbeFailure is not null)
        {
            throw ProbeFailure;
        }

        return Supported;
    }

    public void CloneFile(string source, string destination, CancellationToken cancellation)
    {
        if (CloneFailure?.Invoke(source) is Exception failure)
        {
            throw failure;
        }

        // Each clone adds a reference to the source's blocks; a fresh copy starts again at one.
        int references = _references.AddOrUpdate(source, 2, (_, n) => n + 1);
        if (references > MaxClonesPerFile)
        {
            throw new MaxCloneFileLinksExceededException($"too many references to the blocks of {source}");
        }

        lock (Clones)
        {
            Clones.Add((source, destination));
        }

        // Like FSCTL_DUPLICATE_EXTENTS_TO_FILE: the data arrives, the timestamps are new.
        File.WriteAllBytes(destination, File.ReadAllBytes(source));
    }
}
