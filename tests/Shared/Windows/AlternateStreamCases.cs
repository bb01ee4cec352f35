using System;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// A path that names an alternate data stream ("out\a.dll:s", "a.dll::$DATA") is never block-cloned, on either side,
/// and never asks the CopyFile question: cloning into a stream blue-screened a Dev Drive build (microsoft/CopyOnWrite
/// #24; its fix, PR #25, makes patched builds answer ERROR_NOT_SUPPORTED, and no document says which released builds
/// carry it), and dotnet/runtime #88695 avoids copying from or to a stream "at all costs". Such a file goes to CopyFile,
/// which MSBuild's Copy would have called. The cloner is asked directly: the platform copy that follows is Windows'
/// business, and under Wine a stream name is no stream.
/// </summary>
public abstract class AlternateStreamCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-streams").FullName;
    private readonly SimulatedWindowsSystemCalls _kernel = new();
    private readonly SimulatedVolume _volume;

    protected AlternateStreamCases() => _volume = _kernel.AddVolume(_directory + Path.DirectorySeparatorChar, @"\\?\Volume{37373737-0000-0000-0000-000000000037}\");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Theory]
    [InlineData("a.dll", "b.dll:s")]
    [InlineData("a.dll", "b.dll::$DATA")]
    [InlineData("a.dll", "b.dll:s:$DATA")]
    [InlineData("a.dll:s", "b.dll")]
    [InlineData("a.dll::$DATA", "b.dll")]
    public void A_path_naming_a_stream_on_either_side_is_left_to_CopyFile_before_any_call_on_the_file(string source, string destination)
    {
        _volume.CopyFileClones = true; // where the CopyFile question would be asked of a file of this size
        TestFiles.Write(Named("a.dll"), 70_000);
        var cloner = new WindowsBlockCloner(_kernel);
        Assert.Equal(NotClonedReason.None, cloner.ProbeVolumes(Named("a.dll"), Named("b.dll")));
        _kernel.Calls.Clear();

        CloneAttempt attempt = cloner.Clone(Named(source), Named(destination), CancellationToken.None);
        CloneAttempt itself = cloner.CloneItself(Named(source), Named(destination), CancellationToken.None);

        Assert.Equal((CloneAttemptKind.NotNow, NotClonedReason.NamesAStream), (attempt.Kind, attempt.Reason));
        Assert.Equal((CloneAttemptKind.NotNow, NotClonedReason.NamesAStream), (itself.Kind, itself.Reason));
        Assert.Contains(":", attempt.Detail, StringComparison.Ordinal);
        Assert.DoesNotContain(_kernel.Calls, c => c.StartsWith("CreateFile", StringComparison.Ordinal) || c.StartsWith("CopyFile", StringComparison.Ordinal) || c.StartsWith("DuplicateExtents", StringComparison.Ordinal));
        Assert.Empty(_kernel.Violations);
        Assert.Equal(new[] { "a.dll" }, Directory.GetFiles(_directory).Select(Path.GetFileName));
    }

    [Theory]
    [InlineData(@"C:\repo\out\a.dll:s", true)]
    [InlineData(@"\\?\C:\repo\out\a.dll:Zone.Identifier:$DATA", true)]
    [InlineData(@"\\server\share\a.dll::$DATA", true)]
    [InlineData(@"\\?\UNC\server\share\a.dll:s", true)]
    [InlineData(@"out\a.dll:s", true)]
    [InlineData(@"C:\repo\out\a.dll", false)]
    [InlineData(@"\\?\C:\repo\out\a.dll", false)]
    [InlineData(@"\\?\UNC\server\share\a.dll", false)]
    [InlineData(@"\\.\C:\repo\a.dll", false)]
    [InlineData(@"C:a.dll", false)] // drive-relative: the colon is the drive's
    [InlineData(@"\\?\Volume{12345678-0000-0000-0000-000000000000}\a.dll", false)]
    public void A_stream_is_a_colon_after_the_root(string path, bool namesAStream) =>
        Assert.Equal(namesAStream, StreamPaths.NamesAStream(path));

    private string Named(string name) => Path.Combine(_directory, name);
}
