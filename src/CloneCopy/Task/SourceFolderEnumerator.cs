using System.Collections.Generic;
using System.IO;

namespace CloneCopy;

/// <summary>
/// Lists the files under a SourceFolders item, in the order MSBuild's Copy lists them (observed: for each
/// directory, its subdirectories' files first, subdirectories taken in reverse listing order, then the
/// directory's own files in listing order). Keeping the order keeps DestinationFiles and CopiedFiles
/// identical to the built-in task's. A folder that does not exist contributes nothing, as in MSBuild.
/// </summary>
internal static class SourceFolderEnumerator
{
    /// <summary>Yields (full path, path relative to the folder): MSBuild names a folder's files by their full paths.</summary>
    public static IEnumerable<(string Path, string Relative)> Enumerate(string folder)
    {
        if (!Directory.Exists(folder))
        {
            yield break;
        }

        foreach (var entry in Walk(folder, string.Empty))
        {
            yield return entry;
        }
    }

    private static IEnumerable<(string Path, string Relative)> Walk(string directory, string relative)
    {
        string[] subdirectories = Directory.GetDirectories(directory);
        for (int i = subdirectories.Length - 1; i >= 0; i--)
        {
            string name = Path.GetFileName(subdirectories[i]);
            foreach (var entry in Walk(subdirectories[i], Path.Combine(relative, name)))
            {
                yield return entry;
            }
        }

        foreach (string file in Directory.GetFiles(directory))
        {
            yield return (file, Path.Combine(relative, Path.GetFileName(file)));
        }
    }
}
