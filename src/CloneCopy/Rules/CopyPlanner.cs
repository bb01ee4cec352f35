using System.Collections.Generic;
using System.IO;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>
/// Expands SourceFiles, SourceFolders and DestinationFolder / DestinationFiles into ordered pairs, and the
/// DestinationFiles output. Source files come first, then each source folder's files.
/// </summary>
internal static class CopyPlanner
{
    public static List<CopyPair> Plan(ITaskItem[]? sourceFiles, ITaskItem[]? sourceFolders, ITaskItem? destinationFolder, ITaskItem[]? destinationFiles, CopyEnvironment environment)
    {
        var pairs = new List<CopyPair>();
        sourceFiles ??= [];

        if (destinationFolder is null)
        {
            // Validation guaranteed DestinationFiles has one item per source and no SourceFolders.
            for (int i = 0; i < sourceFiles.Length; i++)
            {
                pairs.Add(new CopyPair(pairs.Count, sourceFiles[i], sourceFiles[i].ItemSpec, destinationFiles![i]));
            }

            return pairs;
        }

        string folder = destinationFolder.ItemSpec;
        foreach (ITaskItem source in sourceFiles)
        {
            var destination = new TaskItem(ItemSpecEscaping.Escape(Path.Combine(folder, Path.GetFileName(source.ItemSpec))));
            source.CopyMetadataTo(destination);
            pairs.Add(new CopyPair(pairs.Count, source, source.ItemSpec, destination) { MetadataCopied = true });
        }

        // Which order MSBuild lists a folder's files in (asked only when there are folders: it may ask MSBuild's change waves).
        bool breadthFirst = sourceFolders is { Length: > 0 } && RunningMSBuildWalksByLevel();
        foreach (ITaskItem sourceFolder in sourceFolders ?? [])
        {
            // Named, and its files named, as MSBuild does (see SourceFolderPath).
            var folderPath = SourceFolderPath.Of(sourceFolder.ItemSpec, environment);
            foreach ((string path, string relative) in SourceFolderEnumerator.Enumerate(folderPath.FullPath, folderPath.ListedBreadthFirst(breadthFirst)))
            {
                var destination = new TaskItem(ItemSpecEscaping.Escape(Path.Combine(folder, folderPath.Name, folderPath.NameOf(path, relative))));
                sourceFolder.CopyMetadataTo(destination);
                pairs.Add(new CopyPair(pairs.Count, sourceFolder, path, destination) { MetadataCopied = true });
            }
        }

        return pairs;
    }

    /// <summary>Whether the running MSBuild's new walk (breadth first) is on; each folder may still be walked the old way (SourceFolderPath).</summary>
    internal static bool RunningMSBuildWalksByLevel() =>
        RunningMSBuild.Current.ListsSourceFoldersBreadthFirst(() => MSBuildChangeWaves.AreFeaturesEnabled(MSBuildChangeWaves.Wave18_11));
}
