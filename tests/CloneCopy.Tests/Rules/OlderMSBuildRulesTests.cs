using System;
using System.IO;
using Xunit;

namespace CloneCopy.Tests.Rules;

/// <summary>
/// The rules of MSBuild's Copy that CloneCopy follows by the running MSBuild's version (docs/fidelity.md, "MSBuild's
/// Copy by version"), each under a faked older and a newer MSBuild through the seams that take a RunningMSBuild.
/// </summary>
public sealed class OlderMSBuildRulesTests
{
    private static readonly RunningMSBuild MSBuild18_0 = new(new Version(18, 0, 2));
    private static readonly RunningMSBuild MSBuild18_9 = new(new Version(18, 9, 11));

    [Fact]
    public void Before_18_4_a_source_folder_is_made_a_full_normalized_path_so_a_doubled_separator_copies_its_files()
    {
        var environment = new FixedEnvironment("/project");

        Assert.Equal("/project/a/tree", SourceFolderPath.Of("a//tree", environment, MSBuild18_0).Value);
        // 18.4 and later keep the spelling (#12914): the files are then named by their full paths, and nothing is copied.
        Assert.Equal("/project/a//tree", SourceFolderPath.Of("a//tree", environment, MSBuild18_9).Value);
        // A trailing separator stays under both: the folder's files land directly in DestinationFolder.
        Assert.Equal(string.Empty, SourceFolderPath.Of("tree/", environment, MSBuild18_0).Name);
    }

    [Fact]
    public void Before_18_7_MSBUILDALWAYSRETRY_and_MSBuildUseSymboliclinksIfPossible_are_read_once_per_process_not_from_the_task()
    {
        // A task environment that has both (as a project's under -mt, or a variable set after the first Copy): read
        // from it in each Execute from 18.7 on (#13466); an older MSBuild read the process's once, which has neither here.
        var environment = new FixedEnvironment("/project", (CopyEscapeHatches.AlwaysRetryVariable, "1"), (CopyEscapeHatches.UseSymbolicLinksVariable, ""));
        Assert.Null(CopyEnvironment.Process.Variable(CopyEscapeHatches.AlwaysRetryVariable));
        Assert.Null(CopyEnvironment.Process.Variable(CopyEscapeHatches.UseSymbolicLinksVariable));

        CopyEscapeHatches newer = CopyEscapeHatches.FromEnvironment(environment, MSBuild18_9);
        CopyEscapeHatches older = CopyEscapeHatches.FromEnvironment(environment, MSBuild18_0);

        Assert.True(newer.AlwaysRetry);
        Assert.True(newer.UseSymbolicLinksByDefault);
        Assert.False(older.AlwaysRetry);
        Assert.False(older.UseSymbolicLinksByDefault);
    }

    [Theory]
    [InlineData("17.8.3", true, true)]
    [InlineData("17.11.48", false, false)] // MSBUILDDISABLEFEATURESFROMVERSION=17.8 there: written in place
    [InlineData("17.12.6", false, true)] // wave 17.8 retired: always deleted first
    [InlineData("18.9.11", false, true)]
    public void Before_17_12_delete_before_write_follows_change_wave_17_8(string msbuild, bool wave17_8On, bool deletes)
    {
        bool asked = false;

        bool result = CopyEscapeHatches.DeletesBeforeWriting(new RunningMSBuild(Version.Parse(msbuild)), () => (asked = true) && wave17_8On);

        Assert.Equal(deletes, result);
        // An MSBuild from 17.12 on is never asked about a wave it has retired.
        Assert.Equal(Version.Parse(msbuild) < new Version(17, 12), asked);
    }

    [Theory]
    [InlineData("18.9.11", true, false)]
    [InlineData("18.10.1", true, false)]
    [InlineData("18.11.0", true, true)]
    [InlineData("18.12.2", true, true)]
    [InlineData("18.12.2", false, false)] // MSBUILDDISABLEFEATURESFROMVERSION=18.11 or lower there: depth first again
    public void From_18_11_a_source_folder_is_listed_breadth_first_while_change_wave_18_11_is_on(string msbuild, bool wave18_11On, bool breadthFirst)
    {
        bool asked = false;

        bool result = new RunningMSBuild(Version.Parse(msbuild)).ListsSourceFoldersBreadthFirst(() => (asked = true) && wave18_11On);

        Assert.Equal(breadthFirst, result);
        // An MSBuild before 18.11 is never asked about a wave it does not know.
        Assert.Equal(Version.Parse(msbuild) >= new Version(18, 11), asked);
    }

    [Fact]
    public void A_source_folder_is_listed_depth_first_or_breadth_first_as_asked()
    {
        // One file per level and one subdirectory per directory: both orders are fixed whatever the listing order.
        string root = Directory.CreateTempSubdirectory("clonecopy-order-").FullName;
        try
        {
            Directory.CreateDirectory(Path.Combine(root, "sub", "deeper"));
            File.WriteAllText(Path.Combine(root, "x.txt"), "x");
            File.WriteAllText(Path.Combine(root, "sub", "y.txt"), "y");
            File.WriteAllText(Path.Combine(root, "sub", "deeper", "z.txt"), "z");

            string[] Relatives(bool breadthFirst) => [.. System.Linq.Enumerable.Select(SourceFolderEnumerator.Enumerate(root, breadthFirst), entry => entry.Relative)];

            Assert.Equal(["sub/deeper/z.txt", "sub/y.txt", "x.txt"], Relatives(breadthFirst: false));
            Assert.Equal(["x.txt", "sub/y.txt", "sub/deeper/z.txt"], Relatives(breadthFirst: true));
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    /// <summary>A project directory and variables of the test's choosing.</summary>
    private sealed class FixedEnvironment : CopyEnvironment
    {
        private readonly string _directory;
        private readonly (string Name, string Value)[] _variables;

        public FixedEnvironment(string directory, params (string Name, string Value)[] variables)
        {
            _directory = directory;
            _variables = variables;
        }

        public override string? Variable(string name) => Array.Find(_variables, v => v.Name == name) is { Name: not null } found ? found.Value : null;

        protected override string Resolve(string spec) => Path.GetFullPath(Join(spec));

        protected override string Join(string spec) => Path.Combine(_directory, spec);
    }
}
