using System;
using System.IO;
using System.Linq;
using CloneCopy.Platform.Windows;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>Symbolic links for the .NET Framework build on Windows, through a scripted kernel32.</summary>
public abstract class WindowsLinksCases : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-winlinks").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Theory]
    [InlineData(14393)] // Windows Server 2016, Windows 10 1607
    [InlineData(7601)] // what Wine 8's default prefix reports
    public void Before_build_14972_a_symbolic_link_is_asked_for_without_the_unprivileged_flag_and_is_made(int osBuild)
    {
        var kernel = new SimulatedWindowsSystemCalls { OsBuild = osBuild };
        string target = Infrastructure.TestFiles.Write(Path.Combine(_directory, "a.dll"), 10);

        bool made = WindowsLinks.TryCreateSymbolicLink(kernel, osBuild, target, Path.Combine(_directory, "link.dll"), out string error);

        Assert.True(made, error);
        Assert.EndsWith(" 0", kernel.CallsTo("CreateSymbolicLink").Single());
    }

    [Theory]
    [InlineData(14972)]
    [InlineData(26100)]
    public void From_build_14972_the_unprivileged_flag_is_passed_so_developer_mode_needs_no_elevation(int osBuild)
    {
        var kernel = new SimulatedWindowsSystemCalls { OsBuild = osBuild };
        string target = Infrastructure.TestFiles.Write(Path.Combine(_directory, "a.dll"), 10);

        Assert.True(WindowsLinks.TryCreateSymbolicLink(kernel, osBuild, target, Path.Combine(_directory, "link.dll"), out string error), error);
        Assert.EndsWith(" 2", kernel.CallsTo("CreateSymbolicLink").Single());
    }

    [Fact]
    public void A_refused_link_reports_the_system_error_instead_of_throwing()
    {
        var kernel = new SimulatedWindowsSystemCalls { Fault = (call, _) => call == "CreateSymbolicLink" ? Win32.ErrorAccessDenied : 0 };

        Assert.False(WindowsLinks.TryCreateSymbolicLink(kernel, 22631, "a", Path.Combine(_directory, "link"), out string error));
        Assert.NotEmpty(error);
    }
}
