using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using Microsoft.Build.Framework;
using Xunit;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// Which walk each SourceFolders item gets, asked of the loaded MSBuild's own FileMatcher: from 18.11 its SelectDriver
/// picks the new (breadth-first) enumeration or keeps the old one per folder, with change wave 18.11 (on or off in this
/// process) taken into account. Folders the differential scenarios cannot copy (the machine's root) are asked here: the
/// path MSBuild's Copy hands its FileMatcher (FileUtilities.NormalizePath of the joined item spec), and its driver for
/// "**" under it, against CloneCopy's path for the item and its choice. An MSBuild without SelectDriver (18.10 and older,
/// this lane's 18.9) walks every folder the old way. Runs in every differential lane: the msbuild-18.12 lane's processes
/// have wave 18.11 on, then off.
/// </summary>
[Trait("Lane", "Differential")]
public sealed class SourceFolderOrderAgainstMSBuildTests
{
    public static IEnumerable<object[]> Folders() =>
        new[] { "/", "/.", "/tmp/..", "//", "/tmp", "/tmp/", "/proc", Path.GetTempPath(), "relative/tree", "tree/./sub" }.Select(f => new object[] { f });

    [Theory]
    [MemberData(nameof(Folders))]
    public void A_source_folder_is_walked_as_MSBuilds_FileMatcher_walks_it(string itemSpec)
    {
        string projectDirectory = Directory.GetCurrentDirectory();
        string msbuildsPath = MSBuildsSourceFolderPath(itemSpec, projectDirectory);
        var ours = SourceFolderPath.Of(itemSpec, CopyEnvironment.ForProcess());
        bool? msbuildByLevel = MSBuildWalksByLevel(msbuildsPath);

        Assert.Equal(msbuildsPath, ours.Value);
        Assert.Equal(msbuildByLevel ?? false, ours.ListedBreadthFirst(CopyPlanner.RunningMSBuildWalksByLevel()));
    }

    [Fact]
    public void MSBuild_from_18_11_has_the_driver_choice_asked_here()
    {
        // Otherwise the theory above would compare with "the old walk everywhere" under an MSBuild that has a new one.
        bool hasChoice = MSBuildWalksByLevel("/tmp") is not null;

        Assert.Equal(RunningMSBuild.Current.Has(RunningMSBuild.SourceFoldersListedBreadthFirst), hasChoice);
    }

    /// <summary>FileUtilities.NormalizePath(new AbsolutePath(spec, project directory)), as the loaded MSBuild's Copy computes it.</summary>
    private static string MSBuildsSourceFolderPath(string itemSpec, string projectDirectory)
    {
        var joined = new AbsolutePath(itemSpec, new AbsolutePath(projectDirectory));
        MethodInfo normalize = typeof(ITask).Assembly.GetType("Microsoft.Build.Framework.FileUtilities", throwOnError: true)!
            .GetMethod("NormalizePath", BindingFlags.NonPublic | BindingFlags.Static, [typeof(AbsolutePath)])
            ?? throw new InvalidOperationException("FileUtilities.NormalizePath(AbsolutePath) not found in the loaded MSBuild");
        return ((AbsolutePath)normalize.Invoke(null, [joined])!).Value;
    }

    /// <summary>True when the loaded MSBuild's FileMatcher picks a new (optimized) driver for "**" under the folder; null where it has no choice.</summary>
    private static bool? MSBuildWalksByLevel(string folder)
    {
        Type? matcher = new[] { typeof(ITask).Assembly, typeof(Microsoft.Build.Tasks.Copy).Assembly }
            .Select(a => a.GetType("Microsoft.Build.Shared.FileMatcher"))
            .FirstOrDefault(t => t is not null);
        MethodInfo? select = matcher?.GetMethod("SelectDriver", BindingFlags.NonPublic | BindingFlags.Instance);
        if (matcher is null || select is null)
        {
            return null;
        }

        object fileMatcher = matcher.GetField("Default", BindingFlags.Public | BindingFlags.Static)!.GetValue(null)!;
        object selection = select.Invoke(fileMatcher, [folder, "**", null])!;
        object driver = selection.GetType().GetProperty("Driver", BindingFlags.NonPublic | BindingFlags.Public | BindingFlags.Instance)!.GetValue(selection)!;
        return driver.ToString() != "Legacy";
    }
}
