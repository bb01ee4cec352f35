using System;
using System.IO;
using CloneCopy.Engine;
using CloneCopy.Platform.Portable;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// Windows: one attribute query per path, the file's identity read only when a rule needs it
/// (<see cref="WindowsFileIdentity"/>), links through kernel32 (so a failure is worded as MSBuild words it),
/// and block clones on ReFS and Dev Drive, else CopyFile. Every system call goes through one
/// <see cref="IWindowsSystemCalls"/>, which tests replace with a simulator.
/// </summary>
internal sealed class WindowsPlatform : IPlatform
{
    private readonly IWindowsSystemCalls _kernel;
    private readonly WindowsFileIdentity _identity;
    private readonly ClonerTransfer _transfer;

    public WindowsPlatform(IWindowsSystemCalls kernel, EngineDiagnostics diagnostics)
    {
        _kernel = LongPathCalls.Over(kernel);
        _identity = new WindowsFileIdentity(_kernel);

        // The cloner is created lazily, inside the transfer: a failure becomes one message and plain copies.
        Transfer = _transfer = new ClonerTransfer(() => new WindowsBlockCloner(_kernel), diagnostics, FileItLeadsTo);
    }

    public bool FollowsWindowsRules => true;

    public bool ComparesPathsExactly => false;

    public IFileTransfer Transfer { get; }

    /// <summary>
    /// One GetFileAttributesEx (a FileInfo's first look), which does not follow links on Windows; a link's
    /// target is asked for only when the entry is a reparse point, since that costs an open. The identity is
    /// left for later (<see cref="FullPath"/>): most destinations do not exist.
    /// </summary>
    public PathStatus Probe(string fullPath)
    {
        FileAttributes attributes;
        var info = new FileInfo(fullPath);
        try
        {
            attributes = info.Attributes; // (FileAttributes)(-1) when nothing is there
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return new PathStatus(false, false); // File.Exists and Directory.Exists say false here too
        }

        if ((int)attributes == -1)
        {
            return new PathStatus(false, false);
        }

        bool isLink = (attributes & FileAttributes.ReparsePoint) != 0 && DotNetPathProbe.IsLink(info);
        return new PathStatus(true, (attributes & FileAttributes.Directory) != 0)
        {
            IsLink = isLink,
            FullPath = fullPath,
            IsReadOnly = (attributes & FileAttributes.ReadOnly) != 0, // FileInfo.IsReadOnly on Windows
        };
    }

    public bool DestinationIsTheSource(string sourceFull, PathStatus source, string destinationFull, PathStatus destination) =>
        _identity.DestinationIsTheSource(sourceFull, source, destinationFull, destination);

    public bool IsSharedEntry(PathStatus entry)
    {
        if (entry.IsLink)
        {
            return true;
        }

        uint links = entry.LinkCount == 0 && entry.FullPath is not null ? _identity.LinkCount(entry.FullPath) : entry.LinkCount;
        return links > 1;
    }

    public bool WriteWouldSucceed(string path) => false;

    public bool TryCreateHardLink(string existingPath, string newPath, out string error) =>
        WindowsLinks.TryCreateHardLink(_kernel, existingPath, newPath, out error);

    public bool TryCreateSymbolicLink(string existingPath, string newPath, out string error) =>
        WindowsLinks.TryCreateSymbolicLink(_kernel, WindowsOsBuild.Current, existingPath, newPath, out error);

    /// <summary>
    /// The rename, and the transfer chain told where the file it wrote now is (a seed made at the link limit follows it),
    /// with the handle that renamed it, through which the renamed file itself is seen (null after MoveFileEx's fallback).
    /// </summary>
    public void ReplaceWith(string replacementPath, string destinationPath) =>
        WindowsReplace.Replace(_kernel, replacementPath, destinationPath, renamed => _transfer.Renamed(replacementPath, destinationPath, renamed));

    /// <summary>.NET follows links itself; the .NET Framework build asks kernel32 for the final path.</summary>
    public FileInfo FileItLeadsTo(string path) =>
        DotNetPathProbe.FileItLeadsTo(path, link => WindowsLinks.TryGetFinalPath(_kernel, link, out string final) ? final : null);
}
