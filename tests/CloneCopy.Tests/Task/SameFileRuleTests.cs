using System.IO;
using CloneCopy.Tests.Differential;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// The same-file test: CloneCopy leaves alone a destination that is the source by another path (a symbolic link
/// to its folder, a bind mount), where MSBuild's Copy would delete the source and then fail. Its Unix test asks
/// for the same inode, the same name and the same folder: a hard link of the source by the same name in another
/// folder is a second name for the data, not the source's path, and MSBuild's Copy replaces it with a copy of its
/// own. Dropping the folder check would leave the two names linked, so a later write to one would change the
/// other. Without this test only 4 of 150 generated differential seeds ever built that tree.
/// </summary>
[Collection(FilesystemCollection.Name)]
public sealed class SameFileRuleTests
{
    private readonly LoopFilesystems _filesystems;

    public SameFileRuleTests(LoopFilesystems filesystems) => _filesystems = filesystems;

    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4)]
    [InlineData(FilesystemKind.Xfs)]
    public void A_hard_link_of_the_source_by_the_same_name_in_another_folder_is_replaced_as_by_MSBuilds_Copy(FilesystemKind kind)
    {
        const string name = "destination is a hard link of the source by the same name in another folder";
        string parent = _filesystems.NewDirectory(kind, "same-file");

        // The harness compares outputs, events and both trees (link counts included) with MSBuild's Copy's, and pins
        // MSBuild's success without errors.
        DifferentialRunner.AssertSameBehaviour(CopyScenarios.Named(name), parent);
    }
}
