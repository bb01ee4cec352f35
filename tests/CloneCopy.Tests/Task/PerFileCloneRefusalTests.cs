using System.IO;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// A clone one file refuses says nothing about the next: btrfs refuses FICLONE between a NOCOW file
/// (chattr +C) and an ordinary one with EINVAL, a per-file answer. Were it taken for the volume pair's
/// (remembered as "the filesystem cannot clone"), every later file on those volumes would be copied. The
/// differential suite cannot see this (a clone and a copy leave equal trees). FIEMAP's shared flag proves the
/// refusal happened (the NOCOW file's copy shares nothing) and that the later files share their sources'
/// blocks; the summaries prove those were FICLONE's clones: since Linux 5.3 copy_file_range, CloneCopy's
/// fallback, itself remaps within one filesystem, so on btrfs and XFS the extents of a "copy" can be shared
/// too, but it is counted as copied, and CloneCopyRequireClones fails the build for it.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class PerFileCloneRefusalTests
{
    private readonly LoopFilesystems _filesystems;

    public PerFileCloneRefusalTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemFact]
    public void After_a_NOCOW_file_refuses_to_clone_the_next_file_on_the_same_btrfs_still_clones()
    {
        string directory = _filesystems.NewDirectory(FilesystemKind.Btrfs, "nocow");
        string noCow = Path.Combine(directory, "src", "a-nocow.bin");
        Directory.CreateDirectory(Path.GetDirectoryName(noCow)!);
        File.WriteAllBytes(noCow, []);
        ProcessRunner.RunChecked("chattr", $"+C \"{noCow}\""); // only an empty file can be made NOCOW
        TestFiles.Write(noCow, 200_000, seed: 1);
        string ordinary = TestFiles.Write(Path.Combine(directory, "src", "b-ordinary.bin"), 200_000, seed: 2);
        string later = TestFiles.Write(Path.Combine(directory, "src", "c-later.bin"), 200_000, seed: 3);
        string output = Path.Combine(directory, "bin");

        // One call, the refusing file first (one destination each: the calling thread runs them in order),
        // then a second call on the same volumes.
        var (_, succeeded, engine) = TaskRunner.CopyToFolder([noCow, ordinary], output);
        var (_, laterSucceeded, laterEngine) = TaskRunner.CopyToFolder([later], output);

        Assert.True(succeeded, engine.Describe());
        Assert.True(laterSucceeded, laterEngine.Describe());
        Assert.Equal(File.ReadAllBytes(noCow), File.ReadAllBytes(Path.Combine(output, "a-nocow.bin")));
        Assert.False(ExtentMap.SharesAllExtents(noCow, Path.Combine(output, "a-nocow.bin"), out string refused), $"the NOCOW file was cloned after all, so this test proves nothing: {refused}");
        Assert.True(ExtentMap.SharesAllExtents(ordinary, Path.Combine(output, "b-ordinary.bin"), out string next), $"the file after the refusal was copied: {next}");
        Assert.True(ExtentMap.SharesAllExtents(later, Path.Combine(output, "c-later.bin"), out string nextCall), $"the next Copy call's file was copied: {nextCall}");
        Assert.Equal($"CloneCopy: 1 file cloned ({SizeText.Format(200_000)} not written), 1 copied (clone refused for this file: 1)", TaskRunner.Summary(engine));
        Assert.Equal($"CloneCopy: 1 file cloned ({SizeText.Format(200_000)} not written)", TaskRunner.Summary(laterEngine));
    }
}
