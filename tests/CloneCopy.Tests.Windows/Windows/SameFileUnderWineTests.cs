using System;
using System.IO;
using CloneCopy.Platform;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// One file reached by two paths on Windows (here Wine's C: drive and its Z: drive, which maps the host's
/// root: the same directory entry by another volume path, as with subst or a mounted folder). The identity
/// comes from the real GetFileInformationByHandle / FILE_ID_INFO and GetFinalPathNameByHandle.
/// </summary>
// Wine's answers, not Windows': left out where the Windows lane runs natively (.ci/windows-steps.yml).
[Trait("Needs", "Wine")]
public sealed class SameFileUnderWineTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-samefile").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void The_source_reached_through_another_drive_is_recognised_as_the_destination()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 100);
        string destination = WinePaths.ThroughDriveZ(source);

        Assert.True(File.Exists(destination), destination);
        Assert.True(PlatformFactory.Current.DestinationIsTheSource(source, PlatformFactory.Current.Probe(source), destination, PlatformFactory.Current.Probe(destination)));
    }

    [Fact]
    public void Copying_a_file_onto_itself_by_another_drive_keeps_the_source()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 1000);
        byte[] content = File.ReadAllBytes(source);
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source)],
            DestinationFiles = [new TaskItem(WinePaths.ThroughDriveZ(source))],
            RetryDelayMilliseconds = 1,
        };

        bool succeeded = task.Execute();

        Assert.True(File.Exists(source), "the copy deleted its own source:\n" + engine.Describe());
        Assert.Equal(content, File.ReadAllBytes(source));
        Assert.True(succeeded, engine.Describe());
    }

    [Fact]
    public void Two_hard_links_in_two_folders_are_one_file_but_not_one_entry()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "cache", "a.dll"), 100);
        string destination = Path.Combine(Directory.CreateDirectory(Path.Combine(_directory, "bin")).FullName, "a.dll");
        FileSystemOps.HardLink(destination, source);

        Assert.False(PlatformFactory.Current.DestinationIsTheSource(source, PlatformFactory.Current.Probe(source), destination, PlatformFactory.Current.Probe(destination)));
    }

    [Fact]
    public void Two_different_files_are_not_the_same()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "a.dll"), 100);
        string destination = TestFiles.Write(Path.Combine(_directory, "b.dll"), 100);

        Assert.False(PlatformFactory.Current.DestinationIsTheSource(source, PlatformFactory.Current.Probe(source), destination, PlatformFactory.Current.Probe(destination)));
    }
}
