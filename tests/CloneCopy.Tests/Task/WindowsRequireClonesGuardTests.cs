using System;
using System.IO;
using System.Linq;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using CloneCopy.Tests.Windows;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// The CI guard (CLC005) over the Windows clone path, through the simulated kernel32: what it says when a
/// file was copied for a Windows reason. Run with an engine that stamps a project build, so no real build is
/// needed.
/// </summary>
public sealed class WindowsRequireClonesGuardTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-winguard").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new();

    public WindowsRequireClonesGuardTests() =>
        _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{66666666-0000-0000-0000-000000000006}\");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_file_copied_because_another_process_was_writing_its_source_is_named_by_the_guard_as_a_sharing_violation()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "obj", "App.dll"), 20_000);
        string output = Path.Combine(_directory, "bin");
        var engine = new ProjectBuildEngine();
        Microsoft.Win32.SafeHandles.SafeFileHandle writer = _kernel.OpenForeign(source, Win32.GenericWrite, Win32.FileShareRead | Win32.FileShareWrite);

        var diagnostics = new EngineDiagnostics();
        bool copied = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source)],
            DestinationFolder = new TaskItem(output),
            Transfer = new ClonerTransfer(() => new WindowsBlockCloner(_kernel), diagnostics),
            Diagnostics = diagnostics,
        }.Execute();
        _kernel.CloseHandle(writer);
        bool passed = new CloneCopySummary { BuildEngine = engine, ProjectName = "App", RequireClones = "error" }.Execute();

        Assert.True(copied, engine.Recorded.Describe());
        Assert.False(passed);
        Assert.Contains("error CLC005: CloneCopy: CloneCopyRequireClones is set, but 1 file was copied instead of cloned, for example "
            + Path.Combine(output, "App.dll") + " (" + OutcomeText.Reason(NotClonedReason.SourceSharingViolation) + ").", engine.Recorded.Describe());
        Assert.Contains("sharing violation", OutcomeText.Reason(NotClonedReason.SourceSharingViolation), StringComparison.Ordinal);
    }

    [Fact]
    public void With_the_guard_set_the_files_are_cloned_by_CloneCopy_where_CopyFile_clones_so_the_guard_counts_what_is_known()
    {
        // Windows 11 from Moment 5: CopyFile clones on this volume. Without the guard the second file is left to it;
        // with CloneCopyRequireClones (handed to the build by CloneCopySettings), CloneCopy clones both itself, and
        // nothing asks the CopyFile question, whose copy is kept where CopyFile copies.
        _kernel.AddVolume(Path.Combine(_directory, "refs") + Path.DirectorySeparatorChar, @"\\?\Volume{66666666-0000-0000-0000-00000000000a}\").CopyFileClones = true;
        string[] sources = [TestFiles.Write(Path.Combine(_directory, "refs", "obj", "A.dll"), 70_000, seed: 1), TestFiles.Write(Path.Combine(_directory, "refs", "obj", "B.dll"), 70_000, seed: 2)];
        var engine = new ProjectBuildEngine();
        var diagnostics = new EngineDiagnostics();

        Assert.True(new CloneCopySettings { BuildEngine = engine, RequireClones = "error" }.Execute());
        var transfer = new ClonerTransfer(() => new WindowsBlockCloner(_kernel), diagnostics);
        bool copied = sources.All(source => new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source)],
            DestinationFolder = new TaskItem(Path.Combine(_directory, "refs", "bin")),
            Transfer = transfer,
            Diagnostics = diagnostics,
        }.Execute());
        bool passed = new CloneCopySummary { BuildEngine = engine, ProjectName = "App", RequireClones = "error" }.Execute();

        Assert.True(copied && passed, engine.Recorded.Describe());
        Assert.Empty(_kernel.CallsTo("CopyFile"));
        Assert.Equal(2, _kernel.CallsTo("DuplicateExtents").Count()); // both cloned by CloneCopy
        Assert.Contains("CloneCopy: 2 files cloned", engine.Recorded.Describe());
        Assert.Equal(File.ReadAllBytes(sources[1]), File.ReadAllBytes(Path.Combine(_directory, "refs", "bin", "B.dll")));
    }
}
