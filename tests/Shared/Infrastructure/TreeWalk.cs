using System.Collections.Generic;
using System.IO;
using System.IO.Enumeration;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// Every entry of a directory tree, each once: a symbolic link (or junction) to a directory is listed but never
/// entered. .NET's recursive enumeration enters such links (on Unix it asks stat, which follows them), so a link
/// to an ancestor was walked again and again until the kernel refused a path, about 40 links deep. Linux may
/// refuse a long chain of links sooner, by chance: a lookup that has to start again (a filesystem was mounted or
/// unmounted meanwhile, anywhere on the machine) keeps counting the links it had already followed, and fails
/// with ELOOP ("Too many levels of symbolic links") below the limit. What a link leads to inside the tree is
/// listed where it lives; the link itself says where it points.
/// </summary>
public static class TreeWalk
{
    private static readonly EnumerationOptions Options = new() { RecurseSubdirectories = true, AttributesToSkip = 0 };

    /// <summary>The full paths of the entries under <paramref name="root"/> (not the root), in listing order.</summary>
    public static IEnumerable<string> Entries(string root) =>
        new FileSystemEnumerable<string>(root, (ref FileSystemEntry entry) => entry.ToFullPath(), Options)
        {
            ShouldRecursePredicate = (ref FileSystemEntry entry) => (entry.Attributes & FileAttributes.ReparsePoint) == 0,
        };
}
