using System.IO;
using CloneCopy.Engine;

namespace CloneCopy.Platform.Portable;

/// <summary>
/// An operating system CloneCopy has no code of its own for (the .NET Framework build off Windows, which
/// MSBuild does not run): .NET's answers, plain copies, no links, no file identity.
/// </summary>
internal sealed class PortablePlatform : IPlatform
{
    public bool FollowsWindowsRules => false;

    public bool ComparesPathsExactly => false;

    public IFileTransfer Transfer { get; } = new PlatformFileCopy();

    public PathStatus Probe(string fullPath) => DotNetPathProbe.Get(fullPath);

    public bool DestinationIsTheSource(string sourceFull, PathStatus source, string destinationFull, PathStatus destination) => false;

    public bool IsSharedEntry(PathStatus entry) => entry.IsLink || entry.LinkCount > 1;

    public bool WriteWouldSucceed(string path) => false;

    public bool TryCreateHardLink(string existingPath, string newPath, out string error)
    {
        error = "Hard links need the .NET build of CloneCopy on this operating system.";
        return false;
    }

    public bool TryCreateSymbolicLink(string existingPath, string newPath, out string error)
    {
        error = "Symbolic links need the .NET build of CloneCopy on this operating system.";
        return false;
    }

    /// <summary>.NET's File.Replace, a rename(2) where the runtime is not on Windows (no backup file asked for).</summary>
    public void ReplaceWith(string replacementPath, string destinationPath) => File.Replace(replacementPath, destinationPath, null);

    public FileInfo FileItLeadsTo(string path) => DotNetPathProbe.FileItLeadsTo(path);
}
