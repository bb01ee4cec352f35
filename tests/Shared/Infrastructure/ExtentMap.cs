using System.Collections.Generic;
using System.ComponentModel;
using System.Linq;
using CloneCopy.BuildCompare;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// What a file's extent map says, read with the repository's one FIEMAP reader (<see cref="FileExtents"/>, compiled
/// in from clonecopy-compare): how tests prove a destination really shares its source's blocks.
/// </summary>
public static class ExtentMap
{
    public static IReadOnlyList<FileExtent> Read(string path) =>
        FileExtents.TryRead(path, out int error) ?? throw new Win32Exception(error, $"FIEMAP failed on {path}");

    /// <summary>
    /// True when the destination's data lives in exactly the source's physical blocks, flagged shared:
    /// a clone, not a copy that merely looks alike.
    /// </summary>
    public static bool SharesAllExtents(string source, string destination, out string explanation)
    {
        var from = Read(source);
        var to = Read(destination);
        explanation = $"source extents: [{Describe(from)}]; destination extents: [{Describe(to)}]";
        if (to.Count == 0 || to.Count != from.Count)
        {
            return false;
        }

        return from.Zip(to).All(p => p.First.IsShared && p.Second.IsShared
            && p.First.Physical == p.Second.Physical && p.First.Logical == p.Second.Logical);
    }

    /// <summary>True when no extent of the file is shared with anything.</summary>
    public static bool SharesNothing(string path) => Read(path).All(e => !e.IsShared);

    private static string Describe(IEnumerable<FileExtent> extents) =>
        string.Join(", ", extents.Select(e => $"{e.Logical}->{e.Physical}+{e.Length} flags=0x{e.Flags:x}"));
}
