using System;
using System.IO;
using CloneCopy.Engine;
using CloneCopy.Platform;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The Windows identity rules (volume serial + file id, final path), read on demand through a scripted
/// kernel32 over real files. A symbolically linked directory stands in for a junction or a subst drive:
/// both reach the same directory entry by another path. Under Wine the real kernel32 is tested instead
/// (tests/CloneCopy.Tests.Windows), since Wine cannot make symbolic links.
/// </summary>
public abstract class WindowsFileIdentityCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-winid").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new();
    private readonly WindowsPlatform _platform;

    protected WindowsFileIdentityCases()
    {
        _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{44444444-0000-0000-0000-000000000004}\");
        _platform = new WindowsPlatform(_kernel, new EngineDiagnostics());
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact(Skip = SymbolicLinks.NoneMadeHere, SkipWhen = nameof(SymbolicLinks.Unavailable), SkipType = typeof(SymbolicLinks))]
    [Trait("Needs", "SymbolicLinks")]
    public void The_source_reached_through_a_linked_directory_is_recognised_as_the_destination()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "real", "a.dll"), 100);
        Directory.CreateSymbolicLink(Path.Combine(_directory, "alias"), Path.Combine(_directory, "real"));
        string destination = Path.Combine(_directory, "alias", "a.dll");

        Assert.True(_platform.DestinationIsTheSource(source, Probed(source), destination, Probed(destination)));
    }

    [Fact]
    public void Two_hard_links_of_one_file_are_not_the_same_entry_so_the_destination_link_may_be_replaced()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "cache", "a.dll"), 100);
        string destination = Path.Combine(Directory.CreateDirectory(Path.Combine(_directory, "bin")).FullName, "a.dll");
        FileSystemOps.HardLink(destination, source);

        Assert.False(_platform.DestinationIsTheSource(source, Probed(source), destination, Probed(destination)));
    }

    [Fact]
    public void Two_different_files_are_not_the_same_and_need_no_final_path()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 100);
        string destination = TestFiles.Write(Path.Combine(_directory, "b.dll"), 100);

        Assert.False(_platform.DestinationIsTheSource(source, Probed(source), destination, Probed(destination)));
        Assert.Empty(_kernel.CallsTo("GetFinalPathName"));
    }

    [Fact(Skip = SymbolicLinks.NoneMadeHere, SkipWhen = nameof(SymbolicLinks.Unavailable), SkipType = typeof(SymbolicLinks))]
    [Trait("Needs", "SymbolicLinks")]
    public void A_symbolic_link_source_leading_to_the_destination_is_the_destination()
    {
        string destination = TestFiles.Write(Path.Combine(_directory, "a.dll"), 100);
        string source = Path.Combine(_directory, "link.dll");
        File.CreateSymbolicLink(source, destination);

        Assert.True(_platform.DestinationIsTheSource(source, Probed(source, isLink: true), destination, Probed(destination)));
    }

    [Fact]
    public void A_hard_linked_destination_is_a_shared_entry_and_a_lone_file_is_not()
    {
        string cache = TestFiles.Write(Path.Combine(_directory, "cache.dll"), 100);
        string linked = Path.Combine(_directory, "linked.dll");
        FileSystemOps.HardLink(linked, cache);
        string lone = TestFiles.Write(Path.Combine(_directory, "lone.dll"), 100);

        Assert.True(_platform.IsSharedEntry(Probed(linked)));
        Assert.False(_platform.IsSharedEntry(Probed(lone)));
    }

    [Fact]
    public void A_path_that_cannot_be_opened_is_not_known_to_be_the_source()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 100);
        _kernel.Fault = (call, _) => call == "CreateFile" ? Win32.ErrorAccessDenied : 0;

        Assert.False(_platform.DestinationIsTheSource(source, Probed(source), source + ".x", Probed(source + ".x")));
        Assert.False(_platform.IsSharedEntry(Probed(source)));
    }

    /// <summary>What PathProbe gives on Windows: existence and link-ness, no identity yet.</summary>
    private static PathStatus Probed(string path, bool isLink = false) => new(true, false) { IsLink = isLink, FullPath = path };
}
