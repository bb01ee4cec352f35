using System.IO;
using CloneCopy.Engine;

namespace CloneCopy.Platform;

/// <summary>
/// What MSBuild's Copy rules and the engine need from the operating system, implemented once per OS in its
/// own folder (Windows/, Linux/, MacOS/, Unix/ for other Unix systems, Portable/ for the rest) and chosen
/// once, by <see cref="PlatformFactory"/>. Nothing outside those folders and the factory asks which OS this is.
/// </summary>
internal interface IPlatform
{
    /// <summary>
    /// True where MSBuild's Copy follows its Windows rules (path syntax, MAX_PATH, the read-only attribute,
    /// no retry of a failed link). The one flag the rules read (through <c>MSBuildPlatformRules</c>).
    /// </summary>
    bool FollowsWindowsRules { get; }

    /// <summary>True where MSBuild compares paths exactly (Linux); elsewhere it ignores case.</summary>
    bool ComparesPathsExactly { get; }

    /// <summary>"Does it exist, is it a directory, which file is it", with as few system calls as the OS allows.</summary>
    PathStatus Probe(string fullPath);

    /// <summary>
    /// True when writing the destination would destroy the source: both paths lead to the same file and
    /// either the source is a symbolic link to the destination, or the destination is the source's own
    /// directory entry seen through another path (a symlinked directory, a bind mount, a junction, subst).
    /// Two hard links of one file are not that: deleting the destination link leaves the source, as MSBuild
    /// expects. Where no identity can be had it answers false, which leaves MSBuild's own behaviour.
    /// </summary>
    bool DestinationIsTheSource(string sourceFull, PathStatus source, string destinationFull, PathStatus destination);

    /// <summary>True when writing into this existing entry in place would also change another path's file.</summary>
    bool IsSharedEntry(PathStatus entry);

    /// <summary>
    /// Whether a write into an existing read-only file would go through for this process: on Unix root may write
    /// whatever the mode says (access(2) answers for it, on Linux and macOS alike); anyone else is refused, as
    /// MSBuild's Copy is. On Windows the read-only attribute stops every writer.
    /// </summary>
    bool WriteWouldSucceed(string path);

    /// <summary>UseHardlinksIfPossible: returns false with the reason, worded as MSBuild words it, when the link could not be made.</summary>
    bool TryCreateHardLink(string existingPath, string newPath, out string error);

    /// <summary>
    /// UseSymboliclinksIfPossible: returns false with the reason when the link could not be made. On Unix the
    /// reason is the errno number, as MSBuild's Copy reports it (inside "The symlink() library call failed
    /// with the following error code").
    /// </summary>
    bool TryCreateSymbolicLink(string existingPath, string newPath, out string error);

    /// <summary>
    /// The file <paramref name="path"/> leads to: itself, or for a symbolic link its final target, as
    /// File.Copy reads it. A dangling link, or one that cannot be followed, is returned as itself.
    /// </summary>
    FileInfo FileItLeadsTo(string path);

    /// <summary>
    /// CloneCopyAtomicReplace: moves <paramref name="replacementPath"/> over <paramref name="destinationPath"/> (an
    /// existing file in the same folder) in one step, so that a reader opening the destination finds the old file or
    /// the new one, never neither. Throws an <see cref="IOException"/> (or <see cref="System.UnauthorizedAccessException"/>)
    /// where it cannot; the caller then replaces the destination as MSBuild's Copy does.
    /// </summary>
    void ReplaceWith(string replacementPath, string destinationPath);

    /// <summary>The transfer chain (clone, else copy), shared by every Copy task in the process so capability verdicts are learnt once per node.</summary>
    IFileTransfer Transfer { get; }
}
