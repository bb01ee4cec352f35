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
/// Paths of MAX_PATH characters or more. A raw Win32 call fails them unless they have the \\?\ form (Naming Files,
/// Paths and Namespaces; the simulator enforces it); .NET adds the prefix inside its own APIs
/// (PathInternal.EnsureExtendedPrefixIfNeeded, applied in each Interop wrapper), not to paths handed to P/Invoke.
/// CloneCopy adds it at its one seam, by .NET's rule (<see cref="LongPathCalls"/>).
/// </summary>
public abstract class LongPathCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-longpath").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_path_of_300_characters_clones()
    {
        var kernel = new SimulatedWindowsSystemCalls();
        kernel.MapDrive('S', _directory);
        kernel.AddVolume(@"S:\", @"\\?\Volume{88888888-0000-0000-0000-000000000008}\");
        string folder = @"S:\" + string.Join(@"\", Enumerable.Range(0, 5).Select(i => new string((char)('a' + i), 57)));
        Directory.CreateDirectory(kernel.HostPath(folder));
        string source = folder + @"\library.dll";
        string destination = folder + @"\library.copy.dll";
        TestFiles.Write(kernel.HostPath(source), 20_000);
        Assert.True(source.Length >= 300 && destination.Length >= 300, $"{source.Length}");
        var cloner = new WindowsBlockCloner(kernel);

        Assert.Equal(NotClonedReason.None, cloner.ProbeVolumes(source, destination));
        CloneAttempt attempt = cloner.Clone(source, destination, CancellationToken.None);

        Assert.True(attempt.Kind == CloneAttemptKind.Cloned, attempt.Detail);
        Assert.Equal(File.ReadAllBytes(kernel.HostPath(source)), File.ReadAllBytes(kernel.HostPath(destination)));
        Assert.Contains($@"CreateFile \\?\{destination} CreateNew", kernel.Calls);
    }

    [Theory]
    [InlineData(259, @"C:\", false)] // under MAX_PATH: as given
    [InlineData(260, @"C:\", true)] // MAX_PATH and more: \\?\ added
    [InlineData(300, @"\\?\C:\", false)] // already extended
    [InlineData(300, @"\\.\C:\", false)] // a device path
    [InlineData(300, @"relative\", false)] // relative paths are never prefixed (.NET: it would stop their resolution)
    [InlineData(300, @"\rooted\", false)] // rooted on the current drive: still partially qualified
    public void The_prefix_is_added_as_dotnet_adds_it(int length, string start, bool extended)
    {
        string path = start + new string('x', length - start.Length);

        string result = LongPathCalls.Extended(path);

        Assert.Equal(extended ? @"\\?\" + path : path, result);
    }

    [Fact]
    public void A_share_path_of_MAX_PATH_or_more_becomes_UNC_extended_and_a_trailing_period_or_space_is_kept_by_the_prefix()
    {
        string share = @"\\server\share\" + new string('x', 290);

        Assert.Equal(@"\\?\UNC\server\share\" + new string('x', 290), LongPathCalls.Extended(share));
        Assert.Equal(@"\\?\C:\dir\name.", LongPathCalls.Extended(@"C:\dir\name."));
        Assert.Equal(@"\\?\C:\dir\name ", LongPathCalls.Extended(@"C:\dir\name "));
        Assert.Equal(@"C:\dir\name", LongPathCalls.Extended(@"C:\dir\name"));
    }

    [Fact]
    public void Wrapping_twice_wraps_once()
    {
        var kernel = new SimulatedWindowsSystemCalls();

        IWindowsSystemCalls once = LongPathCalls.Over(kernel);

        Assert.Same(once, LongPathCalls.Over(once));
    }
}
