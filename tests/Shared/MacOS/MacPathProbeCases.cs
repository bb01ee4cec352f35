using System;
using System.IO;
using CloneCopy.Platform;
using CloneCopy.Platform.MacOS;
using CloneCopy.Platform.Unix;
using CloneCopy.Tests.Infrastructure;
using CloneCopy.Tests.Windows;
using Xunit;

namespace CloneCopy.Tests.MacOS;

/// <summary>
/// PathProbe's macOS answers (lstat, and stat for a link) and the same-file rule they feed, with the
/// system calls modelled over real files (<see cref="StatBackedDarwinCalls"/>).
/// </summary>
public abstract class MacPathProbeCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-macprobe").FullName;
    private readonly StatBackedDarwinCalls _calls = new();

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_file_has_its_device_inode_and_link_count_and_a_missing_path_does_not_exist()
    {
        string file = TestFiles.Write(Path.Combine(_directory, "a.dll"), 10);
        FileSystemOps.HardLink(Path.Combine(_directory, "b.dll"), file);

        PathStatus status = MacPathProbe.Get(file, _calls)!.Value;
        PathStatus missing = MacPathProbe.Get(Path.Combine(_directory, "nothing", "x"), _calls)!.Value;

        Assert.True(status.Exists && !status.IsDirectory && status.HasIdentity);
        Assert.Equal(2u, status.LinkCount);
        Assert.True(UnixFileIdentity.IsSharedEntry(status));
        Assert.False(missing.Exists);
    }

    [Theory]
    [InlineData(typeof(DllNotFoundException))]
    [InlineData(typeof(EntryPointNotFoundException))]
    public void A_C_library_binding_that_fails_leaves_the_answer_to_dotnet_and_is_not_called_again(Type failure)
    {
        var broken = new BrokenBindingDarwinCalls((Exception)Activator.CreateInstance(failure)!);
        var guarded = new GuardedDarwinCalls(broken);
        string file = TestFiles.Write(Path.Combine(_directory, "a.dll"), 10);

        PathStatus? first = MacPathProbe.Get(file, guarded);
        PathStatus? second = MacPathProbe.Get(file, guarded);

        Assert.Null(first); // PathProbe then asks .NET, as on any other failure of the calls
        Assert.Null(second);
        Assert.Equal(1, broken.Calls);
    }

    [Fact(Skip = SymbolicLinks.NoneMadeHere, SkipWhen = nameof(SymbolicLinks.Unavailable), SkipType = typeof(SymbolicLinks))]
    [Trait("Needs", "SymbolicLinks")]
    public void The_source_reached_through_a_linked_directory_is_recognised_so_it_is_never_deleted()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "private", "tmp", "a.dll"), 10);
        Directory.CreateSymbolicLink(Path.Combine(_directory, "tmp"), Path.Combine(_directory, "private", "tmp")); // /tmp → /private/tmp
        string destination = Path.Combine(_directory, "tmp", "a.dll");

        PathStatus sourceStatus = MacPathProbe.Get(source, _calls)!.Value;
        PathStatus destinationStatus = MacPathProbe.Get(destination, _calls)!.Value;

        Assert.True(UnixFileIdentity.DestinationIsTheSource(source, sourceStatus, destination, destinationStatus, path => MacPathProbe.Get(path, _calls)!.Value));
    }

    [Fact(Skip = SymbolicLinks.NoneMadeHere, SkipWhen = nameof(SymbolicLinks.Unavailable), SkipType = typeof(SymbolicLinks))]
    [Trait("Needs", "SymbolicLinks")]
    public void A_link_exists_through_what_it_leads_to_and_a_dangling_one_exists_without_identity()
    {
        string target = TestFiles.Write(Path.Combine(_directory, "a.dll"), 10);
        File.CreateSymbolicLink(Path.Combine(_directory, "link.dll"), target);
        File.CreateSymbolicLink(Path.Combine(_directory, "dangling.dll"), Path.Combine(_directory, "gone.dll"));

        PathStatus link = MacPathProbe.Get(Path.Combine(_directory, "link.dll"), _calls)!.Value;
        PathStatus dangling = MacPathProbe.Get(Path.Combine(_directory, "dangling.dll"), _calls)!.Value;

        Assert.True(link.IsLink && link.Exists && link.HasIdentity);
        Assert.Equal(MacPathProbe.Get(target, _calls)!.Value.Inode, link.Inode);
        Assert.True(dangling.IsLink && dangling.Exists && !dangling.HasIdentity);
    }
}

/// <summary>A libc binding that cannot be bound (no such library, no such entry point): every call throws.</summary>
internal sealed class BrokenBindingDarwinCalls : IDarwinCalls
{
    private readonly Exception _failure;

    public BrokenBindingDarwinCalls(Exception failure) => _failure = failure;

    public int Calls { get; private set; }

    public int Stat(string path, out DarwinFileStatus status) => Fail(out status);

    public int LStat(string path, out DarwinFileStatus status) => Fail(out status);

    public int CloneFile(string source, string destination, uint flags) => Fail(out _);

    public int RemoveUnshared(string path) => Fail(out _);

    private int Fail(out DarwinFileStatus status)
    {
        Calls++;
        status = default;
        throw _failure;
    }
}
