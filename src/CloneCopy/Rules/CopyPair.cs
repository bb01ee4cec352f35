using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>One source file and the destination it must reach, in the order the user gave them.</summary>
internal sealed class CopyPair
{
    public CopyPair(int index, ITaskItem metadataSource, string sourceSpec, ITaskItem destination)
    {
        Index = index;
        MetadataSource = metadataSource;
        SourceSpec = sourceSpec;
        Destination = destination;
    }

    public int Index { get; }

    /// <summary>The item whose metadata the destination item receives: the source file, or its SourceFolders item.</summary>
    public ITaskItem MetadataSource { get; }

    /// <summary>The source path as the user wrote it (unescaped); messages quote it.</summary>
    public string SourceSpec { get; }

    public ITaskItem Destination { get; }

    public string DestinationSpec => Destination.ItemSpec;

    /// <summary>
    /// True when the planner made the destination item and copied the source's metadata onto it already (DestinationFolder,
    /// SourceFolders): copying it again after a success, as MSBuild's Copy does, adds nothing (metadata already there is
    /// never overwritten, OriginalItemSpec included), so it is not done again.
    /// </summary>
    public bool MetadataCopied { get; init; }

    /// <summary>Full paths, computed once by the scheduler; null when the spec is not a valid path (the pair reports it).</summary>
    public string? SourceFullPath { get; set; }

    public string? DestinationFullPath { get; set; }

    /// <summary>
    /// MSBuild's absolute paths of the items: the current directory joined to the spec, not normalized
    /// ("./a.txt" stays apart from "a.txt"); MSBuild tells duplicates apart by these. Null for an empty spec.
    /// </summary>
    public string? SourceAbsolute { get; set; }

    public string? DestinationAbsolute { get; set; }
}
